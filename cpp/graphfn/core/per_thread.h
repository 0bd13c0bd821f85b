// per_thread<T>(): this thread's T, made on first use and destroyed when the thread ends, for
// scratch reused from one op to the next. A thread_local of a class type costs a guard check and
// a second thread-local lookup on every use (a dozen of them were a tenth of an eager scalar add);
// this reads one thread-local pointer.
#pragma once
#include <memory>

namespace graphfn {

template <typename T>
T& per_thread() {
  thread_local T* instance = nullptr;
  if (__builtin_expect(instance != nullptr, 1)) return *instance;
  struct Owner {
    T*& ptr;
    std::unique_ptr<T> owned = std::make_unique<T>();
    ~Owner() { ptr = nullptr; }  // a use after this (another thread_local's destructor) makes a new T
  };
  thread_local Owner owner{instance};
  instance = owner.owned.get();
  return *instance;
}

}  // namespace graphfn
