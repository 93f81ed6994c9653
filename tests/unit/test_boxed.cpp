// Boxed<T> (support/boxed.hpp): std::optional's meaning with the value on the heap, so that a
// plan estimate without a serving estimate carries a pointer, not 440 bytes (issue 49).

#include <mlsize/estimate/plan.hpp>
#include <mlsize/support/boxed.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <utility>

using mlsize::Boxed;

TEST_CASE("Boxed holds a value as std::optional does, copies deeply and keeps its storage", "[boxed]") {
  Boxed<std::string> a;
  CHECK_FALSE(a);
  CHECK_FALSE(a.has_value());
  a = std::string("replicas");
  REQUIRE(a);
  CHECK(*a == "replicas");
  CHECK(a->size() == 8);

  Boxed<std::string> b = a;  // a deep copy
  *b += " and spares";
  CHECK(*a == "replicas");
  CHECK(*b == "replicas and spares");

  const std::string* storage = &*a;
  a.reset();
  CHECK_FALSE(a);
  a = std::string("again");
  CHECK(&*a == storage);  // reset kept the storage: a reused estimate allocates once

  Boxed<std::string> empty;
  b = empty;  // copying an empty box empties
  CHECK_FALSE(b);
  Boxed<std::string> moved = std::move(a);
  CHECK(moved);
  CHECK(*moved == "again");
  CHECK_FALSE(a);  // NOLINT(bugprone-use-after-move): a moved-from box is empty
}

TEST_CASE("a plan estimate without serving is the smaller for the box", "[boxed]") {
  CHECK(sizeof(mlsize::PlanEstimate) < 700);  // 1,008 bytes with the serving estimate inline
}
