// Stream handles: which ones exist and how they order with the legacy
// default stream (what stream capture needs to know about them).
#pragma once

#include <cuda_runtime_api.h>

namespace cudasim {

// 0, the legacy/per-thread handles or a live stream.
bool is_valid_stream(cudaStream_t stream);

// The legacy default stream: 0 or cudaStreamLegacy.
inline bool is_legacy_stream(cudaStream_t stream)
{
    return stream == nullptr || stream == cudaStreamLegacy;
}

// Whether work on the legacy default stream waits for this stream: true for
// streams created without cudaStreamNonBlocking and for the per-thread
// default stream.
bool synchronizes_with_legacy_stream(cudaStream_t stream);

}  // namespace cudasim
