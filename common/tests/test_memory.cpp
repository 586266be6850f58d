// The memory-limit variables: byte counts with K, M or G, and nothing that wraps around.
#include <gtest/gtest.h>

#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"

namespace gpgpu {
namespace {

TEST(Memory, ParsesByteCounts) {
  EXPECT_EQ(parse_byte_count("123", "V"), 123u);
  EXPECT_EQ(parse_byte_count("64K", "V"), 64u << 10);
  EXPECT_EQ(parse_byte_count("64M", "V"), 64u << 20);
  EXPECT_EQ(parse_byte_count("2G", "V"), 2ull << 30);
  EXPECT_EQ(parse_byte_count("17179869183G", "V"), 17179869183ull << 30);  // just below 2^64
}

TEST(Memory, RefusesWhatIsNotACountOrWrapsAround) {
  // 17179869184G is 2^64 bytes: it wrapped around to 0 ("only 0 B available").
  for (const char* text : {"17179869184G", "18446744073709551615K", "99999999999999999999", "", "12T", "-1", "1.5G"})
    EXPECT_THROW(parse_byte_count(text, "GPGPU_HOST_MEMORY_LIMIT"), UsageError) << text;
}

}  // namespace
}  // namespace gpgpu
