# cudasim_enable(<target>)
#
# Makes a CUDA target run on the CPU simulator instead of a GPU:
#  - CUDA_ARCHITECTURES 90-virtual: nvcc embeds only PTX (compute_90), no SASS,
#  - --no-compress: the PTX is stored as plain text in the fat binary,
#  - CUDA_RUNTIME_LIBRARY None: cudart is not linked (nvcc's -cudart none);
#    libcudasim provides the runtime API and the __cuda* registration hooks.
#
# Use it on every target with CUDA sources and on every executable that
# links one (CMake adds cudart at the final link unless that target says
# None).
function(cudasim_enable target)
  set_target_properties(${target} PROPERTIES
    CUDA_ARCHITECTURES 90-virtual
    CUDA_RUNTIME_LIBRARY None)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--no-compress>)
  target_link_libraries(${target} PRIVATE cudasim::cudasim)
endfunction()
