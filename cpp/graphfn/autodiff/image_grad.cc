// Gradients of the resize ops (ops/image_ops.cc), as TF's: the *Grad ops scatter each output
// gradient back to the pixels the forward pass sampled. `size` gets no gradient.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

AttrMap sampling_attrs(const GradInputs& in) {
  return grad::attrs({{"align_corners", in.attr_bool("align_corners")},
                      {"half_pixel_centers", in.attr_bool("half_pixel_centers")}});
}

bool is_float_image(GradBuilder& b, const GradValue& v) {
  const DType dt = b.dtype(v);
  return dt == DType::kFloat32 || dt == DType::kFloat64;
}

// Integer images have no gradient (TF returns None for them); float16/bfloat16 images get
// ResizeBilinearGrad in their dtype, as TF's.
Status resize_bilinear_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const DType dt = b.dtype(x(in));
  if (is_float_image(b, x(in)) || dt == DType::kHalf || dt == DType::kBFloat16) (*g)[0] = b.op("ResizeBilinearGrad", {dy(in), x(in)}, sampling_attrs(in));
  return b.status();
}

Status resize_bicubic_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (is_float_image(b, x(in))) (*g)[0] = b.op("ResizeBicubicGrad", {dy(in), x(in)}, sampling_attrs(in));
  return b.status();
}

// The original height and width are the images' shape[1:3].
Status resize_nearest_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue hw = b.op("Slice", {b.shape_of(x(in)), b.int_vector({1}), b.int_vector({2})});
  (*g)[0] = b.op("ResizeNearestNeighborGrad", {dy(in), hw}, sampling_attrs(in));
  return b.status();
}

// Only the images get a gradient (not size, scale or translation), as in TF.
Status scale_and_translate_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (b.dtype(x(in)) != DType::kFloat32) return b.status();
  const std::string* kernel = in.attrs ? in.attrs->get_string("kernel_type") : nullptr;
  (*g)[0] = b.op("ScaleAndTranslateGrad", {dy(in), x(in), in.inputs[2], in.inputs[3]},
                 grad::attrs({{"kernel_type", kernel ? *kernel : std::string("lanczos3")},
                              {"antialias", in.attr_bool("antialias")}}));
  return b.status();
}

// The image gets a gradient when it is float; the boxes always do; box_ind and crop_size never.
Status crop_and_resize_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const std::string* method = in.attrs ? in.attrs->get_string("method") : nullptr;
  if (is_float_image(b, x(in))) {
    (*g)[0] = b.op("CropAndResizeGradImage", {dy(in), in.inputs[1], in.inputs[2], b.shape_of(x(in))},
                   grad::attrs({{"T", b.dtype(x(in))}, {"method", method ? *method : std::string("bilinear")}}));
  }
  (*g)[1] = b.op("CropAndResizeGradBoxes", {dy(in), x(in), in.inputs[1], in.inputs[2]});
  return b.status();
}

// RGBToHSV: TF's piecewise derivative of (h, s, v) with respect to (r, g, b), pixel by pixel. Ties
// between channels go to the first of red, green, blue for the largest, as in the forward op.
Status rgb_to_hsv_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const DType dt = b.dtype(x(in));
  const AttrMap split = grad::attrs({{"num", int64_t{3}}, {"axis", int64_t{-1}}});
  const std::vector<GradValue> rgb = b.op_n("Unpack", {x(in)}, split);
  const std::vector<GradValue> hsv = b.op_n("Unpack", {grad::out(in)}, split);
  const std::vector<GradValue> d = b.op_n("Unpack", {dy(in)}, split);
  if (rgb.size() != 3 || hsv.size() != 3 || d.size() != 3) return b.status();
  const GradValue &r = rgb[0], &gr = rgb[1], &bl = rgb[2];
  auto mul = [&](std::initializer_list<GradValue> vs) {
    GradValue acc;
    for (const GradValue& v : vs) acc = acc ? b.op("Mul", {acc, v}) : v;
    return acc;
  };
  auto add = [&](const GradValue& p, const GradValue& q) { return b.op("AddV2", {p, q}); };
  auto sub = [&](const GradValue& p, const GradValue& q) { return b.op("Sub", {p, q}); };
  auto mask = [&](const GradValue& cond) { return b.op("Cast", {cond}, grad::attrs({{"DstT", dt}})); };
  auto both = [&](const char* op1, const GradValue& a1, const GradValue& b1, const char* op2, const GradValue& a2,
                  const GradValue& b2) {
    return mask(b.op("LogicalAnd", {b.op(op1, {a1, b1}), b.op(op2, {a2, b2})}));
  };
  // 1 / v, and 0 where v is 0 (TF's div_no_nan(1, v)).
  auto recip = [&](const GradValue& v) {
    const GradValue zero = b.zeros_like(v);
    const GradValue is_zero = b.op("Equal", {v, zero});
    const GradValue safe = b.op("SelectV2", {is_zero, b.ones_like(v), v});
    return b.op("SelectV2", {is_zero, zero, b.op("RealDiv", {b.ones_like(v), safe})});
  };
  const GradValue neg1 = b.scalar(dt, -1), c60 = b.scalar(dt, 60), c360 = b.scalar(dt, 360);
  const GradValue big_r = both("GreaterEqual", r, bl, "GreaterEqual", r, gr);
  const GradValue big_g = both("Greater", gr, r, "GreaterEqual", gr, bl);
  const GradValue big_b = both("Greater", bl, r, "Greater", bl, gr);
  const GradValue small_r = both("Less", r, bl, "Less", r, gr);
  const GradValue small_g = both("LessEqual", gr, r, "Less", gr, bl);
  const GradValue small_b = both("LessEqual", bl, r, "LessEqual", bl, gr);
  const GradValue pos_r = mask(b.op("Greater", {r, b.zeros_like(r)}));
  const GradValue pos_g = mask(b.op("Greater", {gr, b.zeros_like(gr)}));
  const GradValue pos_b = mask(b.op("Greater", {bl, b.zeros_like(bl)}));

  // Saturation (max - min) / max: the largest channel's derivative is min / max^2, the
  // smallest's -1 / max.
  auto ds_of = [&](const GradValue& pos, const GradValue& big, const GradValue& c, const GradValue& small_1,
                   const GradValue& c1, const GradValue& small_2, const GradValue& c2, const GradValue& small,
                   const GradValue& big_1, const GradValue& big_2) {
    const GradValue as_max = mul({big, add(mul({small_1, c1}), mul({small_2, c2})), recip(b.op("Square", {c}))});
    const GradValue as_min = mul({small, neg1, recip(add(mul({big_1, c1}), mul({big_2, c2})))});
    return mul({pos, add(as_max, as_min)});
  };
  const GradValue ds_r = ds_of(pos_r, big_r, r, small_g, gr, small_b, bl, small_r, big_g, big_b);
  const GradValue ds_g = ds_of(pos_g, big_g, gr, small_r, r, small_b, bl, small_g, big_r, big_b);
  const GradValue ds_b = ds_of(pos_b, big_b, bl, small_g, gr, small_r, r, small_b, big_g, big_r);

  // Hue: five cases per channel (it is the largest; another is the largest and it is the
  // smallest, or the third one is), in degrees / 360.
  const GradValue inv_s2_v2 = mul({recip(b.op("Square", {hsv[1]})), recip(b.op("Square", {hsv[2]}))});
  auto sq_recip = [&](const GradValue& p, const GradValue& q) { return recip(b.op("Square", {sub(p, q)})); };
  auto hue = [&](std::initializer_list<GradValue> terms) {
    GradValue sum;
    for (const GradValue& t : terms) sum = sum ? add(sum, b.op("Mul", {c60, t})) : b.op("Mul", {c60, t});
    return b.op("RealDiv", {sum, c360});
  };
  const GradValue dh_r = hue({mul({pos_r, big_r, neg1, sub(gr, bl), inv_s2_v2}),
                              mul({pos_g, big_g, small_r, sub(bl, gr), sq_recip(r, gr)}),
                              mul({pos_g, big_g, small_b, neg1, recip(sub(gr, bl))}),
                              mul({pos_b, big_b, small_r, sub(bl, gr), sq_recip(bl, r)}),
                              mul({pos_b, big_b, small_g, recip(sub(bl, gr))})});
  const GradValue dh_g = hue({mul({pos_g, big_g, neg1, sub(bl, r), inv_s2_v2}),
                              mul({pos_r, big_r, small_g, sub(r, bl), sq_recip(r, gr)}),
                              mul({pos_r, big_r, small_b, recip(sub(r, bl))}),
                              mul({pos_b, big_b, small_g, sub(r, bl), sq_recip(bl, gr)}),
                              mul({pos_b, big_b, small_r, neg1, recip(sub(bl, r))})});
  const GradValue dh_b = hue({mul({pos_b, big_b, neg1, sub(r, gr), inv_s2_v2}),
                              mul({pos_r, big_r, small_b, sub(gr, r), sq_recip(r, bl)}),
                              mul({pos_r, big_r, small_g, neg1, recip(sub(r, gr))}),
                              mul({pos_g, big_g, small_b, sub(gr, r), sq_recip(gr, bl)}),
                              mul({pos_g, big_g, small_r, recip(sub(gr, r))})});

  auto channel = [&](const GradValue& dv, const GradValue& dsat, const GradValue& dhue) {
    return add(add(b.op("Mul", {d[2], dv}), b.op("Mul", {d[1], dsat})), b.op("Mul", {d[0], dhue}));
  };
  const std::vector<GradValue> parts = {channel(big_r, ds_r, dh_r), channel(big_g, ds_g, dh_g),
                                        channel(big_b, ds_b, dh_b)};
  const std::vector<GradValue> packed = b.op_n("Pack", parts, grad::attrs({{"N", int64_t{3}}, {"axis", int64_t{-1}}}));
  if (!packed.empty()) (*g)[0] = packed[0];
  return b.status();
}

}  // namespace

void register_image_gradients(OpRegistry& reg) {
  reg.set_gradient("ResizeBilinear", resize_bilinear_grad);
  reg.set_gradient("ResizeBicubic", resize_bicubic_grad);
  reg.set_gradient("ResizeNearestNeighbor", resize_nearest_grad);
  reg.set_gradient("ScaleAndTranslate", scale_and_translate_grad);
  reg.set_gradient("CropAndResize", crop_and_resize_grad);
  reg.set_gradient("RGBToHSV", rgb_to_hsv_grad);
  reg.set_not_differentiable("HSVToRGB");  // as TF declares them
  reg.set_not_differentiable("ResizeBilinearGrad");
}

}  // namespace graphfn
