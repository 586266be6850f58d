// gpgpu::harness::code_without_comments, what the exercise checks read a student's source through.
#include <gtest/gtest.h>

#include "gpgpu/harness/source_code.hpp"

namespace {

using gpgpu::harness::code_without_comments;
using gpgpu::harness::Literals;

TEST(SourceCode, BlanksCommentsAndKeepsLines) {
  EXPECT_EQ(code_without_comments("a // b\nc /* d\ne */ f"), "a  \nc   f");
  EXPECT_EQ(code_without_comments("a /* never closed"), "a  ");
  EXPECT_EQ(code_without_comments("x // to the end"), "x  ");
}

TEST(SourceCode, JoinsSplicedLines) {
  EXPECT_EQ(code_without_comments("__lo\\\ncal"), "__local");
  EXPECT_EQ(code_without_comments("// a comment \\\ngoes on\nb"), " \nb");
}

TEST(SourceCode, KeepsOrBlanksLiterals) {
  const char* text = R"(f("// not a comment", '"', "a \" b"); g();)";
  EXPECT_EQ(code_without_comments(text), text);
  EXPECT_EQ(code_without_comments(text, Literals::blank), "f( ,  ,  ); g();");
  EXPECT_EQ(code_without_comments("s = R\"x(a )\" b)x\"; t", Literals::blank), "s =  ; t");
  // An unclosed literal ends at its line's end; the next line is code again.
  EXPECT_EQ(code_without_comments("\"open\nlocal", Literals::blank), " \nlocal");
  EXPECT_EQ(code_without_comments("#include \"ring.hpp\" // why"), "#include \"ring.hpp\"  ");
}

}  // namespace
