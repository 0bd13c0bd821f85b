// UTF-8 / UTF-16-BE / UTF-32-BE reading and writing for the tf.strings kernels. Ill-formed input
// is reported one "maximal subpart" at a time (the Unicode standard's recommendation, which ICU,
// and therefore TF, follows): a byte that cannot start a sequence, or a truncated sequence, is
// one error, and reading resumes at the first byte that did not fit.
#pragma once
#include <cstdint>
#include <string>

namespace graphfn {
namespace utf {

enum class Encoding { kUtf8, kUtf16Be, kUtf32Be, kUnknown };

inline Encoding encoding_named(const std::string& name) {
  if (name == "UTF-8") return Encoding::kUtf8;
  if (name == "UTF-16-BE") return Encoding::kUtf16Be;
  if (name == "UTF-32-BE") return Encoding::kUtf32Be;
  return Encoding::kUnknown;
}

inline bool is_surrogate(int64_t c) { return c >= 0xD800 && c <= 0xDFFF; }
inline bool is_valid_code_point(int64_t c) { return c >= 0 && c <= 0x10FFFF && !is_surrogate(c); }
// What TF accepts as replacement_char: any code point, surrogates included (U+0000..U+10FFFF).
inline bool is_code_point_in_range(int64_t c) { return c >= 0 && c <= 0x10FFFF; }

// Reads one character of UTF-8 at s[*i] (< n), advancing *i. Returns the code point, or -1 for an
// ill-formed subpart (then *i has moved past it).
inline int32_t next_utf8(const unsigned char* s, size_t n, size_t* i) {
  const unsigned char b0 = s[(*i)++];
  if (b0 < 0x80) return b0;
  int need;
  int32_t cp;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1, cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2, cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3, cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return -1;
  }
  for (int k = 0; k < need; ++k) {
    if (*i >= n) return -1;
    const unsigned char b = s[*i];
    if (k == 0 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return -1;
    cp = (cp << 6) | (b & 0x3F);
    ++*i;
  }
  return cp;
}

// Reads one character of UTF-16-BE or UTF-32-BE, as next_utf8 does.
inline int32_t next_utf16be(const unsigned char* s, size_t n, size_t* i) {
  if (*i + 2 > n) {
    *i = n;
    return -1;
  }
  const uint32_t u = (uint32_t{s[*i]} << 8) | s[*i + 1];
  *i += 2;
  if (u < 0xD800 || u > 0xDFFF) return static_cast<int32_t>(u);
  if (u >= 0xDC00) return -1;  // a lone low surrogate
  if (*i + 2 > n) {  // a high surrogate and a truncated unit: one ill-formed part, as ICU reads it
    *i = n;
    return -1;
  }
  const uint32_t low = (uint32_t{s[*i]} << 8) | s[*i + 1];
  if (low < 0xDC00 || low > 0xDFFF) return -1;
  *i += 2;
  return static_cast<int32_t>(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
}

inline int32_t next_utf32be(const unsigned char* s, size_t n, size_t* i) {
  if (*i + 4 > n) {
    *i = n;
    return -1;
  }
  const uint32_t u = (uint32_t{s[*i]} << 24) | (uint32_t{s[*i + 1]} << 16) | (uint32_t{s[*i + 2]} << 8) | s[*i + 3];
  *i += 4;
  return is_valid_code_point(u) ? static_cast<int32_t>(u) : -1;
}

inline int32_t next_char(Encoding e, const unsigned char* s, size_t n, size_t* i) {
  switch (e) {
    case Encoding::kUtf16Be: return next_utf16be(s, n, i);
    case Encoding::kUtf32Be: return next_utf32be(s, n, i);
    default: return next_utf8(s, n, i);
  }
}

inline void append_utf8(int32_t cp, std::string* out) {
  if (is_surrogate(cp)) cp = 0xFFFD;  // not encodable in UTF-8 (a surrogate replacement_char): ICU's U+FFFD
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

inline void append_char(Encoding e, int32_t cp, std::string* out) {
  switch (e) {
    case Encoding::kUtf16Be:
      if (cp >= 0x10000) {
        const int32_t v = cp - 0x10000;
        const int32_t high = 0xD800 + (v >> 10), low = 0xDC00 + (v & 0x3FF);
        out->push_back(static_cast<char>(high >> 8));
        out->push_back(static_cast<char>(high & 0xFF));
        out->push_back(static_cast<char>(low >> 8));
        out->push_back(static_cast<char>(low & 0xFF));
      } else {
        out->push_back(static_cast<char>(cp >> 8));
        out->push_back(static_cast<char>(cp & 0xFF));
      }
      break;
    case Encoding::kUtf32Be:
      for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((cp >> shift) & 0xFF));
      break;
    default: append_utf8(cp, out);
  }
}

// The number of UTF-8 characters as TF's StringLength counts them: every byte that is not a
// continuation byte (10xxxxxx) starts one.
inline int64_t count_utf8_chars(const std::string& s) {
  int64_t n = 0;
  for (unsigned char b : s) n += (b & 0xC0) != 0x80;
  return n;
}

}  // namespace utf
}  // namespace graphfn
