// The one place that lists every op family and kernel family, in registration order:
// definitions first (ops/), then implementations (kernels/), then gradients (autodiff/*_grad.cc).
// It lives above the layers it lists; ir's registry only holds what this installs.
#include "graphfn/runtime/builtin_ops.h"

#include "graphfn/ir/op_registry.h"

namespace graphfn {

void register_math_ops(OpRegistry& reg);
void register_array_ops(OpRegistry& reg);
void register_graph_ops(OpRegistry& reg);
void register_resource_variable_ops(OpRegistry& reg);
void register_logging_ops(OpRegistry& reg);
void register_random_ops(OpRegistry& reg);
void register_slicing_ops(OpRegistry& reg);
void register_fill_ops(OpRegistry& reg);
void register_linalg_ops(OpRegistry& reg);
void register_reduction_ops(OpRegistry& reg);
void register_clip_ops(OpRegistry& reg);
void register_control_flow_ops(OpRegistry& reg);
void register_list_ops(OpRegistry& reg);
void register_gradient_ops(OpRegistry& reg);
void register_nn_ops(OpRegistry& reg);
void register_scan_ops(OpRegistry& reg);
void register_math_cwise_ops(OpRegistry& reg);
void register_segment_ops(OpRegistry& reg);
void register_top_k_ops(OpRegistry& reg);
void register_bincount_ops(OpRegistry& reg);
void register_shape_index_ops(OpRegistry& reg);
void register_scatter_nd_ops(OpRegistry& reg);
void register_sort_ops(OpRegistry& reg);
void register_einsum_ops(OpRegistry& reg);
void register_linalg_more_ops(OpRegistry& reg);
void register_nn_conv_ops(OpRegistry& reg);
void register_nn_pool_ops(OpRegistry& reg);
void register_nn_misc_ops(OpRegistry& reg);
void register_image_ops(OpRegistry& reg);
void register_stateless_random_ops(OpRegistry& reg);
void register_random_sampling_ops(OpRegistry& reg);
void register_debug_ops(OpRegistry& reg);
void register_string_hash_ops(OpRegistry& reg);
void register_lookup_ops(OpRegistry& reg);
void register_data_ops(OpRegistry& reg);
void register_io_ops(OpRegistry& reg);
void register_image_codec_ops(OpRegistry& reg);

void register_cwise_binary_kernels(OpRegistry& reg);
void register_cwise_unary_kernels(OpRegistry& reg);
void register_array_kernels(OpRegistry& reg);
void register_cast_kernels(OpRegistry& reg);
void register_graph_kernels(OpRegistry& reg);
void register_variable_kernels(OpRegistry& reg);
void register_logging_kernels(OpRegistry& reg);
void register_random_kernels(OpRegistry& reg);
void register_strided_slice_kernels(OpRegistry& reg);
void register_gather_kernels(OpRegistry& reg);
void register_select_kernels(OpRegistry& reg);
void register_fill_kernels(OpRegistry& reg);
void register_matmul_kernels(OpRegistry& reg);
void register_reduction_kernels(OpRegistry& reg);
void register_argminmax_kernels(OpRegistry& reg);
void register_clip_kernels(OpRegistry& reg);
void register_list_kernels(OpRegistry& reg);
void register_gradient_kernels(OpRegistry& reg);
void register_softmax_kernels(OpRegistry& reg);
void register_scan_kernels(OpRegistry& reg);
void register_math_cwise_kernels(OpRegistry& reg);
void register_segment_kernels(OpRegistry& reg);
void register_top_k_kernels(OpRegistry& reg);
void register_bincount_kernels(OpRegistry& reg);
void register_shape_index_kernels(OpRegistry& reg);
void register_scatter_nd_kernels(OpRegistry& reg);
void register_sort_kernels(OpRegistry& reg);
void register_einsum_kernels(OpRegistry& reg);
void register_linalg_more_kernels(OpRegistry& reg);
void register_nn_conv_kernels(OpRegistry& reg);
void register_nn_pool_kernels(OpRegistry& reg);
void register_nn_activation_kernels(OpRegistry& reg);
void register_nn_batch_norm_kernels(OpRegistry& reg);
void register_nn_bias_lrn_kernels(OpRegistry& reg);
void register_image_resize_kernels(OpRegistry& reg);
void register_image_color_kernels(OpRegistry& reg);
void register_image_scale_translate_kernels(OpRegistry& reg);
void register_image_crop_and_resize_kernels(OpRegistry& reg);
void register_stateless_random_kernels(OpRegistry& reg);
void register_random_sampling_kernels(OpRegistry& reg);
void register_debug_kernels(OpRegistry& reg);
void register_string_hash_kernels(OpRegistry& reg);
void register_lookup_kernels(OpRegistry& reg);
void register_data_kernels(OpRegistry& reg);
void register_io_kernels(OpRegistry& reg);
void register_image_codec_kernels(OpRegistry& reg);
void register_csv_kernels(OpRegistry& reg);
void register_example_kernels(OpRegistry& reg);
void register_dtype_cwise_kernels(OpRegistry& reg);
void register_dtype_reduction_kernels(OpRegistry& reg);
void register_dtype_matmul_kernels(OpRegistry& reg);
void register_complex_ops(OpRegistry& reg);
void register_complex_kernels(OpRegistry& reg);
void register_complex_gradients(OpRegistry& reg);

void register_math_gradients(OpRegistry& reg);
void register_array_gradients(OpRegistry& reg);
void register_reduction_gradients(OpRegistry& reg);
void register_linalg_gradients(OpRegistry& reg);
void register_nn_gradients(OpRegistry& reg);
void register_control_flow_gradients(OpRegistry& reg);
void register_list_gradients(OpRegistry& reg);
void register_script_ops(OpRegistry& reg);
void register_script_kernels(OpRegistry& reg);
void register_script_gradients(OpRegistry& reg);
void register_math_cwise_gradients(OpRegistry& reg);
void register_segment_gradients(OpRegistry& reg);
void register_top_k_gradients(OpRegistry& reg);
void register_shape_index_gradients(OpRegistry& reg);
void register_linalg_more_gradients(OpRegistry& reg);
void register_nn_conv_gradients(OpRegistry& reg);
void register_nn_misc_gradients(OpRegistry& reg);
void register_image_gradients(OpRegistry& reg);
void register_random_gradients(OpRegistry& reg);
void register_debug_gradients(OpRegistry& reg);
void register_lookup_gradients(OpRegistry& reg);
void register_data_gradients(OpRegistry& reg);

namespace {

void register_builtin_ops(OpRegistry& reg) {
  register_math_ops(reg);
  register_array_ops(reg);
  register_graph_ops(reg);
  register_resource_variable_ops(reg);
  register_logging_ops(reg);
  register_random_ops(reg);
  register_slicing_ops(reg);
  register_fill_ops(reg);
  register_linalg_ops(reg);
  register_reduction_ops(reg);
  register_clip_ops(reg);
  register_control_flow_ops(reg);
  register_list_ops(reg);
  register_gradient_ops(reg);
  register_nn_ops(reg);
  register_scan_ops(reg);
  register_script_ops(reg);
  register_math_cwise_ops(reg);
  register_segment_ops(reg);
  register_top_k_ops(reg);
  register_bincount_ops(reg);
  register_shape_index_ops(reg);
  register_scatter_nd_ops(reg);
  register_sort_ops(reg);
  register_einsum_ops(reg);
  register_linalg_more_ops(reg);
  register_nn_conv_ops(reg);
  register_nn_pool_ops(reg);
  register_nn_misc_ops(reg);
  register_image_ops(reg);
  register_stateless_random_ops(reg);
  register_random_sampling_ops(reg);
  register_debug_ops(reg);
  register_string_hash_ops(reg);
  register_lookup_ops(reg);
  register_data_ops(reg);
  register_io_ops(reg);
  register_image_codec_ops(reg);
  register_complex_ops(reg);

  register_cwise_binary_kernels(reg);
  register_cwise_unary_kernels(reg);
  register_array_kernels(reg);
  register_cast_kernels(reg);
  register_graph_kernels(reg);
  register_variable_kernels(reg);
  register_logging_kernels(reg);
  register_random_kernels(reg);
  register_strided_slice_kernels(reg);
  register_gather_kernels(reg);
  register_select_kernels(reg);
  register_fill_kernels(reg);
  register_matmul_kernels(reg);
  register_reduction_kernels(reg);
  register_argminmax_kernels(reg);
  register_clip_kernels(reg);
  register_list_kernels(reg);
  register_gradient_kernels(reg);
  register_softmax_kernels(reg);
  register_scan_kernels(reg);
  register_script_kernels(reg);
  register_math_cwise_kernels(reg);
  register_segment_kernels(reg);
  register_top_k_kernels(reg);
  register_bincount_kernels(reg);
  register_shape_index_kernels(reg);
  register_scatter_nd_kernels(reg);
  register_sort_kernels(reg);
  register_einsum_kernels(reg);
  register_linalg_more_kernels(reg);
  register_nn_conv_kernels(reg);
  register_nn_pool_kernels(reg);
  register_nn_activation_kernels(reg);
  register_nn_batch_norm_kernels(reg);
  register_nn_bias_lrn_kernels(reg);
  register_image_resize_kernels(reg);
  register_image_color_kernels(reg);
  register_image_scale_translate_kernels(reg);
  register_image_crop_and_resize_kernels(reg);
  register_stateless_random_kernels(reg);
  register_random_sampling_kernels(reg);
  register_debug_kernels(reg);
  register_string_hash_kernels(reg);
  register_lookup_kernels(reg);
  register_data_kernels(reg);
  register_io_kernels(reg);
  register_csv_kernels(reg);
  register_example_kernels(reg);
  register_image_codec_kernels(reg);
  register_dtype_cwise_kernels(reg);
  register_dtype_reduction_kernels(reg);
  register_dtype_matmul_kernels(reg);
  register_complex_kernels(reg);

  // Gradient functions (autodiff/*_grad.cc), after every op exists.
  register_math_gradients(reg);
  register_array_gradients(reg);
  register_reduction_gradients(reg);
  register_linalg_gradients(reg);
  register_nn_gradients(reg);
  register_control_flow_gradients(reg);
  register_list_gradients(reg);
  register_script_gradients(reg);
  register_math_cwise_gradients(reg);
  register_segment_gradients(reg);
  register_top_k_gradients(reg);
  register_shape_index_gradients(reg);
  register_linalg_more_gradients(reg);
  register_nn_conv_gradients(reg);
  register_nn_misc_gradients(reg);
  register_image_gradients(reg);
  register_random_gradients(reg);
  register_debug_gradients(reg);
  register_lookup_gradients(reg);
  register_data_gradients(reg);
  register_complex_gradients(reg);
}

}  // namespace

void install_builtin_ops() { OpRegistry::install_global(register_builtin_ops); }

}  // namespace graphfn
