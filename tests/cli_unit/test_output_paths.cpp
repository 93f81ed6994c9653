// --output by what the path is (docs/reliability.md): a file is replaced atomically, a
// character device or FIFO is written in place and stays what it was, /dev/stdout is
// stdout. Device nodes are made with mknod in a temporary folder, never the system's own
// /dev; that needs root, so as another user those cases say so and check the rest.

#include "cli/io/output_file.hpp"
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

using mlsize::testing::fresh_directory;
using mlsize::testing::run_cli;
using mlsize::testing::slurp;
namespace fs = std::filesystem;

namespace {

const std::string k_aws = std::string(MLSIZE_TEST_DATA_DIR) + "/skypilot/aws/vms.csv";

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// A character device like the system's null (1, 3) or full (1, 7), in `dir`; false when
// this user may not make one (not root, or a file system mounted nodev refuses it).
bool make_char_device(const fs::path& node, unsigned minor) {
  return ::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0;
}

bool is_char_device(const fs::path& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
}

std::string with_import_output(const std::string& output) {
  return run_cli({"catalog", "import", "--from", "skypilot", k_aws, "--as-of", "2025-04-28", "--output", output,
                  "--no-user-catalog"})
      .out;
}

}  // namespace

TEST_CASE("output paths: a regular file is replaced whole, with nothing left beside it", "[output]") {
  const fs::path dir = fresh_directory("mlsize-atomic");
  const fs::path file = dir / "out.txt";
  std::ofstream(file) << "old content that is longer than the new one";
  mlsize::cli::write_output_file(file.string(), "new");
  CHECK(slurp(file) == "new");
  CHECK(entries(dir) == 1);
}

TEST_CASE("output paths: new files get 0666 less the umask, existing ones keep their mode", "[output]") {
  const fs::path dir = fresh_directory("mlsize-modes");
  const mode_t previous = ::umask(022);
  mlsize::cli::write_output_file((dir / "new.txt").string(), "x");
  CHECK((fs::status(dir / "new.txt").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
  std::ofstream(dir / "private.txt") << "old";
  fs::permissions(dir / "private.txt", fs::perms::owner_read | fs::perms::owner_write);
  mlsize::cli::write_output_file((dir / "private.txt").string(), "new");
  CHECK((fs::status(dir / "private.txt").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));
  ::umask(previous);
}

TEST_CASE("output paths: as root, a replaced file keeps its owner", "[output]") {
  if (::geteuid() != 0) {
    WARN("not root: a file's owner cannot be given away, nothing to check");
    return;
  }
  const fs::path dir = fresh_directory("mlsize-owner");
  const fs::path file = dir / "theirs.txt";
  std::ofstream(file) << "old";
  REQUIRE(::chown(file.c_str(), 65534, 65534) == 0);
  mlsize::cli::write_output_file(file.string(), "new");
  struct stat info {};
  REQUIRE(::stat(file.c_str(), &info) == 0);
  CHECK(info.st_uid == 65534);
  CHECK(info.st_gid == 65534);
  CHECK(slurp(file) == "new");
}

TEST_CASE("output paths: a symbolic link stays and its target is written", "[output]") {
  const fs::path dir = fresh_directory("mlsize-symlink");
  std::ofstream(dir / "target.txt") << "old";
  fs::create_symlink(dir / "target.txt", dir / "link.txt");
  mlsize::cli::write_output_file((dir / "link.txt").string(), "new");
  CHECK(fs::is_symlink(dir / "link.txt"));
  CHECK(slurp(dir / "target.txt") == "new");
  CHECK(entries(dir) == 2);
}

TEST_CASE("output paths: a FIFO is streamed into and stays a FIFO", "[output]") {
  const fs::path dir = fresh_directory("mlsize-fifo");
  const fs::path fifo = dir / "report.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  // The reader: opening a FIFO for reading waits for the writer, as `cat fifo` would.
  std::thread reader([&] { received = slurp(fifo); });
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", fifo.string()});
  reader.join();
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(received == run_cli({"recommend", "--params", "7B", "--data", "200GB"}).out);
  CHECK(fs::is_fifo(fifo));
  CHECK(entries(dir) == 1);  // no temporary file beside it
}

TEST_CASE("output paths: as root, a null device takes the output and stays a device", "[output]") {
  const fs::path dir = fresh_directory("mlsize-null-device");
  const fs::path null = dir / "null";
  if (!make_char_device(null, 3)) {
    WARN("cannot make a device node here (" << std::strerror(errno) << "): needs root on a file system without nodev");
    return;
  }
  const auto report = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", null.string()});
  CHECK(is_char_device(null));
  const auto import = run_cli({"catalog", "import", "--from", "skypilot", k_aws, "--as-of", "2025-04-28", "--output",
                               null.string(), "--no-user-catalog"});
  CHECK(is_char_device(null));
  CHECK(entries(dir) == 1);
  // Writing needs the file system to allow devices; where it does, both succeed quietly.
  const int fd = ::open(null.c_str(), O_WRONLY);
  if (fd >= 0) {
    ::close(fd);
    CHECK(report.exit_code == 0);
    CHECK(report.out.empty());
    CHECK(import.exit_code == 0);
    CHECK(import.out.empty());
  }
}

TEST_CASE("output paths: as root, a full device is a write error and stays a device", "[output]") {
  const fs::path dir = fresh_directory("mlsize-full-device");
  const fs::path full = dir / "full";
  if (!make_char_device(full, 7)) {
    WARN("cannot make a device node here (" << std::strerror(errno) << "): needs root on a file system without nodev");
    return;
  }
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", full.string()});
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.rfind("mlsize: error: " + full.string() + ": cannot write the output: ", 0) == 0);
  CHECK(is_char_device(full));
  CHECK(entries(dir) == 1);
}

TEST_CASE("output paths: /dev/stdout and its other names are stdout", "[output]") {
  const auto plain = run_cli({"recommend", "--params", "7B", "--data", "200GB"});
  for (const char* name : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    INFO(name);
    const auto named = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", name});
    CHECK(named.exit_code == 0);
    CHECK(named.out == plain.out);
  }
  const std::string overlay = with_import_output("/dev/stdout");
  CHECK(overlay == with_import_output("-"));
  CHECK(overlay.rfind("# mlsize catalog import", 0) == 0);
}

TEST_CASE("output paths: /dev/fd/N is written to descriptor N, a closed one is an error", "[output]") {
  const fs::path dir = fresh_directory("mlsize-fd");
  const fs::path file = dir / "appended.txt";
  std::ofstream(file) << "kept\n";
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND);
  REQUIRE(fd > 2);
  mlsize::cli::write_output_file("/dev/fd/" + std::to_string(fd), "added\n");
  ::close(fd);
  CHECK(slurp(file) == "kept\nadded\n");  // as bash's >> would: appended, not replaced
  CHECK_THROWS_WITH(mlsize::cli::write_output_file("/dev/fd/" + std::to_string(fd), "x"),
                    Catch::Contains("descriptor " + std::to_string(fd) + " is not open"));
}

TEST_CASE("output paths: a directory and a socket are refused, and stay", "[output]") {
  const fs::path dir = fresh_directory("mlsize-refused");
  const auto into_dir = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", dir.string()});
  CHECK(into_dir.exit_code == 1);
  CHECK(into_dir.out.empty());
  CHECK(into_dir.err.find("cannot write the output: it is a directory") != std::string::npos);
  CHECK(fs::is_directory(dir));

  const fs::path socket_path = dir / "s.sock";
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(sock >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof address.sun_path - 1);
  REQUIRE(::bind(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  const auto into_socket =
      run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", socket_path.string()});
  ::close(sock);
  CHECK(into_socket.exit_code == 1);
  CHECK(into_socket.err.find("it is a socket") != std::string::npos);
  CHECK(fs::is_socket(socket_path));
}

// Issue 46: --output behaves as a shell's redirection does, and no worse.
TEST_CASE("output paths: a read-only file is refused unless --force", "[output]") {
  const fs::path dir = fresh_directory("mlsize-read-only");
  const fs::path file = dir / "report.txt";
  std::ofstream(file) << "keep me";
  fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::vector<std::string> args{"recommend", "--params", "7B", "--data", "200GB", "--output", file.string()};
  const auto refused = run_cli(args);
  CHECK(refused.exit_code == 1);
  CHECK(refused.out.empty());
  CHECK_THAT(refused.err, Catch::Contains("read-only"));
  CHECK_THAT(refused.err, Catch::Contains("--force"));
  CHECK(slurp(file) == "keep me");
  std::vector<std::string> forced = args;
  forced.push_back("--force");
  CHECK(run_cli(forced).exit_code == 0);
  CHECK(slurp(file) != "keep me");
}

TEST_CASE("output paths: the run's own input is refused as its output", "[output]") {
  const fs::path dir = fresh_directory("mlsize-own-input");
  const fs::path overlay = dir / "mine.yaml";
  std::ofstream(overlay) << "offerings: []\n";
  fs::create_symlink(overlay, dir / "alias.yaml");
  for (const fs::path& output : {overlay, dir / "alias.yaml"}) {
    const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--catalog", overlay.string(),
                                 "--output", output.string()});
    INFO(result.err);
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err, Catch::Contains("one of this run's inputs"));
    CHECK(slurp(overlay) == "offerings: []\n");
  }
}

TEST_CASE("output paths: as root, a link in a sticky world-writable directory owned by another user is refused",
          "[output]") {
  if (::geteuid() != 0) return;  // only root can give the link another owner
  const fs::path dir = fresh_directory("mlsize-sticky");
  REQUIRE(::chmod(dir.c_str(), 01777) == 0);
  const fs::path target = fresh_directory("mlsize-sticky-target") / "victim.txt";
  std::ofstream(target) << "system file";
  const fs::path link = dir / "report.txt";
  fs::create_symlink(target, link);
  REQUIRE(::lchown(link.c_str(), 65534, 65534) == 0);  // nobody's link, in root's /tmp-like directory
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", link.string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("fs.protected_symlinks"));
  CHECK(slurp(target) == "system file");
  // The same link owned by the directory's owner (root) is followed, as the kernel does.
  REQUIRE(::lchown(link.c_str(), 0, 0) == 0);
  CHECK(run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", link.string()}).exit_code == 0);
  CHECK(slurp(target) != "system file");
}

TEST_CASE("output paths: a FIFO without a reader is an error after a bounded wait", "[output]") {
  const fs::path dir = fresh_directory("mlsize-fifo-alone");
  const fs::path fifo = dir / "nobody.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto started = std::chrono::steady_clock::now();
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", fifo.string()});
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("no process read the FIFO"));
  CHECK(seconds < 10);
  CHECK(fs::is_fifo(fifo));
}

TEST_CASE("output paths: a name of NAME_MAX bytes is written", "[output]") {
  const fs::path dir = fresh_directory("mlsize-long-name");
  const fs::path file = dir / std::string(255, 'r');
  mlsize::cli::write_output_file(file.string(), "report");
  CHECK(slurp(file) == "report");
  CHECK(entries(dir) == 1);
}

TEST_CASE("output paths: SIGTERM during a write leaves no temporary file", "[output]") {
  const fs::path dir = fresh_directory("mlsize-sigterm");
  const fs::path file = dir / "big.txt";
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // 256 MB written and fsync'ed: a SIGTERM a millisecond in lands mid-write.
    const std::string text(256u << 20, 'x');
    struct itimerval timer {};
    timer.it_value.tv_usec = 1000;
    ::signal(SIGALRM, [](int) { ::kill(::getpid(), SIGTERM); });
    ::setitimer(ITIMER_REAL, &timer, nullptr);
    mlsize::cli::write_output_file(file.string(), text);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  for (const auto& entry : fs::directory_iterator(dir)) {
    INFO(entry.path());
    CHECK(entry.path().filename().string().rfind(".mlsize-", 0) != 0);
  }
}
