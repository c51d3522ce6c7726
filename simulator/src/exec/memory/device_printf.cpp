#include "exec/memory/device_printf.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace cudasim {
namespace {

std::string read_string(uint64_t addr, const DeviceReader& read)
{
    std::string s;
    if (addr == 0)
        return "(null)";
    for (;; ++addr) {
        char c = static_cast<char>(*read(addr, 1));
        if (c == '\0')
            return s;
        s += c;
    }
}

uint64_t take_argument(uint64_t& cursor, uint32_t size, const DeviceReader& read)
{
    cursor = (cursor + size - 1) / size * size;
    uint64_t v = 0;
    std::memcpy(&v, read(cursor, size), size);
    cursor += size;
    return v;
}

}  // namespace

int format_device_printf(uint64_t format, uint64_t args, const DeviceReader& read, std::string& out)
{
    std::string fmt = read_string(format, read);
    uint64_t cursor = args;
    int arguments = 0;
    auto take = [&](uint32_t bytes) {
        ++arguments;
        return take_argument(cursor, bytes, read);
    };
    char buf[512];
    for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') {
            out += fmt[i];
            continue;
        }
        size_t start = i++;
        if (i < fmt.size() && fmt[i] == '%') {
            out += '%';
            continue;
        }
        while (i < fmt.size() && std::strchr("-+ #0123456789.*", fmt[i]))
            ++i;
        int longs = 0;
        while (i < fmt.size() && std::strchr("hlLqjzt", fmt[i])) {
            if (fmt[i] == 'l' || fmt[i] == 'q' || fmt[i] == 'j' || fmt[i] == 'z' || fmt[i] == 't')
                ++longs;
            ++i;
        }
        if (i >= fmt.size())
            break;
        char conv = fmt[i];
        // Rebuild the conversion without length modifiers; we pass 64-bit values.
        std::string spec = fmt.substr(start, i - start);
        spec.erase(
            std::remove_if(spec.begin() + 1, spec.end(), [](char c) { return std::strchr("hlLqjzt", c) != nullptr; }),
            spec.end());
        switch (conv) {
        case 'd':
        case 'i': {
            uint64_t v = take(longs ? 8 : 4);
            long long x = longs ? static_cast<long long>(v) : static_cast<int32_t>(v);
            std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), x);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            uint64_t v = take(longs ? 8 : 4);
            unsigned long long x = longs ? v : static_cast<uint32_t>(v);
            std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), x);
            break;
        }
        case 'c': {
            uint64_t v = take(4);
            std::snprintf(buf, sizeof buf, (spec + conv).c_str(), static_cast<int>(v));
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            uint64_t v = take(8);
            double d;
            std::memcpy(&d, &v, 8);
            std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
            break;
        }
        case 's': {
            std::string s = read_string(take(8), read);
            std::snprintf(buf, sizeof buf, (spec + conv).c_str(), s.c_str());
            break;
        }
        case 'p': {
            uint64_t v = take(8);
            std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
            break;
        }
        default:
            std::snprintf(buf, sizeof buf, "%s", fmt.substr(start, i - start + 1).c_str());
            break;
        }
        out += buf;
    }
    return arguments;
}

std::string describe_assertion(uint64_t message, uint64_t file, uint64_t line, uint64_t function,
                               const DeviceReader& read)
{
    return read_string(file, read) + ":" + std::to_string(static_cast<uint32_t>(line)) + ": " +
           read_string(function, read) + ": Assertion `" + read_string(message, read) + "` failed";
}

}  // namespace cudasim
