#include "cli/support/kept.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace mlsize::cli {
namespace {

struct Kept {
  void* object;
  void (*destroy)(void*);
};

std::atomic<bool> g_until_exit{false};
// Until the process ends: never deleted, so what is kept stays reachable from here and a
// leak checker does not report it.
std::mutex g_forever_mutex;
std::vector<Kept>* g_forever = nullptr;
// Until the command ends, per thread: the tests run commands on several threads.
struct CommandKept {
  std::vector<Kept> objects;
  CommandKept() = default;
  CommandKept(const CommandKept&) = delete;
  CommandKept& operator=(const CommandKept&) = delete;
  ~CommandKept() { end_command(); }  // a thread that ends mid-command
};
thread_local CommandKept g_command;

}  // namespace

void keep_until_exit() {
  g_until_exit = true;
}

void end_command() {
  // Last kept first: a later object may point into an earlier one.
  std::vector<Kept>& objects = g_command.objects;
  while (!objects.empty()) {
    const Kept last = objects.back();
    objects.pop_back();
    last.destroy(last.object);
  }
}

namespace detail {

void keep(void* object, void (*destroy)(void*)) {
  if (!g_until_exit) {
    g_command.objects.push_back({object, destroy});
    return;
  }
  const std::lock_guard lock(g_forever_mutex);
  if (g_forever == nullptr) g_forever = new std::vector<Kept>;
  g_forever->push_back({object, destroy});
}

}  // namespace detail
}  // namespace mlsize::cli
