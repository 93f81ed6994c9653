#pragma once
// What a command builds that is large and freed piece by piece is kept until the process
// ends, when the process ends after the command: the kernel takes the pages back at once.
// Freeing them was work at every exit (issue 49, "no teardown work at exit"): the catalogue
// 0.77 M and CLI11's parser 0.35 M of `estimate`'s 6.65 M instructions. The tests run many
// commands in one process; there each command's are freed when it ends (end_command).

#include <type_traits>
#include <utility>

namespace mlsize::cli {

// main(): what commands keep is never freed (the process ends after one command).
void keep_until_exit();

// Frees what the command kept (nothing is, after keep_until_exit). run() calls it when its
// command ends, however it ends.
void end_command();

namespace detail {
void keep(void* object, void (*destroy)(void*));
}

// `value` moved to the heap, where it stays until end_command (or the process's end).
template <class T>
requires(!std::is_reference_v<T>) T& kept(T&& value) {
  T* object = new T(std::forward<T>(value));
  detail::keep(object, [](void* p) { delete static_cast<T*>(p); });
  return *object;
}

}  // namespace mlsize::cli
