#pragma once
// A value kept on the heap behind std::optional's interface: a large member that most of its
// owners lack costs a pointer when absent (issue 49: a plan's serving estimate is 440 of a
// plan estimate's 1,008 bytes, and training plans never have one). Copies are deep; reset()
// keeps the storage, so an owner reused in a loop (the planner's estimate) allocates once.

#include <memory>
#include <utility>

namespace mlsize {

template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& other) : m_engaged(other.m_engaged) {
    if (m_engaged) m_value = std::make_unique<T>(*other.m_value);
  }
  Boxed(Boxed&& other) noexcept : m_value(std::move(other.m_value)), m_engaged(std::exchange(other.m_engaged, false)) {}
  Boxed& operator=(const Boxed& other) {
    if (this == &other) return *this;
    if (!other.m_engaged) {
      m_engaged = false;
      return *this;
    }
    return *this = *other.m_value;
  }
  Boxed& operator=(Boxed&& other) noexcept {
    m_value = std::move(other.m_value);
    m_engaged = std::exchange(other.m_engaged, false);
    return *this;
  }
  Boxed& operator=(const T& value) {
    if (m_value) {
      *m_value = value;
    } else {
      m_value = std::make_unique<T>(value);
    }
    m_engaged = true;
    return *this;
  }
  ~Boxed() = default;

  void reset() { m_engaged = false; }
  bool has_value() const { return m_engaged; }
  explicit operator bool() const { return m_engaged; }
  T& operator*() { return *m_value; }
  const T& operator*() const { return *m_value; }
  T* operator->() { return m_value.get(); }
  const T* operator->() const { return m_value.get(); }

 private:
  std::unique_ptr<T> m_value;  // kept after reset()
  bool m_engaged = false;
};

}  // namespace mlsize
