// NumPy's .npy format (versions 1.0-3.0), strictly: little-endian or byte-sized numeric and
// bool arrays in C order, and fixed-width byte strings ('S<n>', to and from string tensors).
// Anything else (big-endian, Fortran order, object or unicode arrays, a header that is not the
// plain dict NumPy writes, data longer or shorter than the shape says) is an InvalidArgument
// error naming the problem; sizes are checked before anything is allocated.
#pragma once
#include <string>
#include <string_view>

#include "graphfn/core/tensor.h"

namespace graphfn {

Status decode_npy(std::string_view bytes, Tensor* out);
Status encode_npy(const Tensor& t, std::string* bytes);

Status read_npy(const std::string& path, Tensor* out);
Status write_npy(const std::string& path, const Tensor& t);

}  // namespace graphfn
