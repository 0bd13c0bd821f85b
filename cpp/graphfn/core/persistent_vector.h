// PersistentVector<T>: a vector whose copies never see each other's writes, where a copy costs
// one pointer and a write copies one path of a 32-way trie (at most 4 levels below a million
// elements) instead of every element, and nothing when no other copy shares that path. TensorList holds its items in one, so a TensorArray written
// once per loop iteration costs the same per write at 100 000 elements as at 10, while every
// version of the list stays a value (TF gets there by mutating a list in place when it holds the
// only reference to it). Elements never written read as T().
#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <utility>

namespace graphfn {

template <typename T>
class PersistentVector {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Requires i < size().
  const T& operator[](size_t i) const {
    const void* node = root_.get();
    for (int level = levels_; level > 0 && node; --level) {
      node = static_cast<const Inner*>(node)->children[child_index(i, level)].get();
    }
    return node ? static_cast<const Leaf*>(node)->items[i & kMask] : unset();
  }

  // Requires i < size(). Other copies of this vector keep their value.
  void set(size_t i, T value) { set_in(root_, levels_, i, std::move(value)); }

  // Growing adds unset elements; shrinking drops the tail.
  void resize(size_t n) {
    if (n < size_) {
      PersistentVector kept;
      kept.resize(n);
      for (size_t i = 0; i < n; ++i) kept.set(i, (*this)[i]);
      *this = std::move(kept);
      return;
    }
    while (capacity() < n) {
      if (root_) {
        auto inner = std::make_shared<Inner>();
        inner->children[0] = std::move(root_);
        root_ = std::move(inner);
      }
      ++levels_;
    }
    size_ = n;
  }

  void push_back(T value) {
    resize(size_ + 1);
    set(size_ - 1, std::move(value));
  }

 private:
  static constexpr int kBits = 5;
  static constexpr size_t kWidth = size_t{1} << kBits;
  static constexpr size_t kMask = kWidth - 1;

  struct Leaf {
    std::array<T, kWidth> items;
  };
  struct Inner {
    std::array<std::shared_ptr<const void>, kWidth> children;  // Inner one level up from leaves, else Leaf
  };

  static size_t child_index(size_t i, int level) { return (i >> (level * kBits)) & kMask; }
  size_t capacity() const {  // 32^(levels + 1), or every size_t once that overflows
    const int bits = (levels_ + 1) * kBits;
    return bits >= static_cast<int>(8 * sizeof(size_t)) ? ~size_t{0} : size_t{1} << bits;
  }

  static const T& unset() {
    static const T value{};
    return value;
  }

  // Sets item i below `slot`, copying each node on the way down that another vector shares.
  static void set_in(std::shared_ptr<const void>& slot, int level, size_t i, T&& value) {
    if (level == 0) {
      writable<Leaf>(slot)->items[i & kMask] = std::move(value);
      return;
    }
    set_in(writable<Inner>(slot)->children[child_index(i, level)], level - 1, i, std::move(value));
  }

  // The node in `slot`, safe to change: a copy unless this vector is its only owner (then no
  // other vector can see the change), a new node if there is none.
  template <typename Node>
  static Node* writable(std::shared_ptr<const void>& slot) {
    if (slot && slot.use_count() == 1) return const_cast<Node*>(static_cast<const Node*>(slot.get()));
    auto node = slot ? std::make_shared<Node>(*static_cast<const Node*>(slot.get())) : std::make_shared<Node>();
    Node* raw = node.get();
    slot = std::move(node);
    return raw;
  }

  std::shared_ptr<const void> root_;  // null while nothing is written
  int levels_ = 0;                    // Inner levels above the leaves
  size_t size_ = 0;
};

}  // namespace graphfn
