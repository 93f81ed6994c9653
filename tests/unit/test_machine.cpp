// Reading a machine from its tools' outputs, and mapping what it reports onto the catalogue.
// The recorded outputs under tests/data/detect/ (README there) are real-shaped; the short
// texts here are cut from the same shapes.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/machine/device_match.hpp>
#include <mlsize/machine/here.hpp>
#include <mlsize/machine/machine.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace mlsize;

namespace {

std::string fixture(const std::string& path) {
  std::ifstream in(std::string(MLSIZE_TEST_DATA_DIR) + "/detect/" + path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const Catalog& catalog() {
  static const Catalog loaded = load_default_catalog();
  return loaded;
}

// The recorded machine in tests/data/detect/NAME, its files as the CLI would read them.
DetectedMachine recorded(const std::string& name) {
  MachineReadings readings;
  for (const auto& entry : name_table<MachineSource>()) {
    std::ifstream in(std::string(MLSIZE_TEST_DATA_DIR) + "/detect/" + name + "/" + std::string(entry.name));
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    readings.readings.push_back({entry.value, text.str(), name + "/" + std::string(entry.name)});
  }
  return read_machine(readings, false);
}

std::string matched_id(std::string_view reported, std::optional<double> mib = std::nullopt,
                       DeviceRole role = DeviceRole::accelerator) {
  std::optional<Bytes> memory;
  if (mib) memory = Bytes(*mib * 1024 * 1024);
  const DeviceMatch match = match_device(catalog(), reported, memory, role);
  return match.device != nullptr ? match.device->id : "unknown";
}

template <class Body>
std::string error_of(Body body) {
  try {
    body();
  } catch (const Error& error) {
    return error.where() + ": " + error.message();
  }
  return "no error";
}

}  // namespace

TEST_CASE("nvidia-smi's CSV with its header and units gives each GPU", "[machine]") {
  const std::vector<DetectedGpu> gpus = parse_nvidia_smi_csv(fixture("h100x8/nvidia-smi.csv"), "nvidia-smi.csv");
  REQUIRE(gpus.size() == 8);
  CHECK(gpus[0].index == 0);
  CHECK(gpus[0].name == "NVIDIA H100 80GB HBM3");
  CHECK(gpus[0].vendor == "nvidia");
  REQUIRE(gpus[0].memory);
  CHECK(gpus[0].memory->value == 81559.0 * 1024 * 1024);
  CHECK(gpus[0].bus_id == "00000000:1B:00.0");
  CHECK_FALSE(gpus[0].mig);
  CHECK(gpus[7].index == 7);
  CHECK(gpus[7].bus_id == "00000000:DF:00.0");
}

TEST_CASE("nvidia-smi's CSV without header or units reads the fields mlsize asks for", "[machine]") {
  const auto gpus = parse_nvidia_smi_csv("0, NVIDIA A100-SXM4-40GB, 40960, 00000000:00:04.0, Enabled\n", "smi");
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].memory->value == 40960.0 * 1024 * 1024);
  CHECK(gpus[0].mig);
  // A header in another order, fewer fields, "[N/A]" memory (unified-memory parts).
  const auto other = parse_nvidia_smi_csv("name, memory.total [MiB]\nNVIDIA GB10, [N/A]\nTesla T4, 15360 MiB\n", "smi");
  REQUIRE(other.size() == 2);
  CHECK(other[0].name == "NVIDIA GB10");
  CHECK_FALSE(other[0].memory);
  CHECK(other[1].index == 1);
  // What nvidia-smi prints when its driver sees no GPU.
  CHECK(parse_nvidia_smi_csv("No devices were found\n", "smi").empty());
  CHECK(parse_nvidia_smi_csv("", "smi").empty());
}

TEST_CASE("a malformed nvidia-smi line is an error at its line", "[machine]") {
  CHECK(error_of([] { parse_nvidia_smi_csv("index, name, memory.total [MiB]\n0, NVIDIA L4\n", "smi.csv"); }) ==
        "smi.csv:2: 2 fields where 3 were expected");
  CHECK(error_of([] { parse_nvidia_smi_csv("0, NVIDIA L4, lots, 00000000:00:04.0, Disabled\n", "smi.csv"); }) ==
        "smi.csv:1: memory.total \"lots\" is not a number of MiB");
  CHECK(error_of([] { parse_nvidia_smi_csv("0, NVIDIA L4, 23034, 00000000:00:04.0, Maybe\n", "smi.csv"); }) ==
        "smi.csv:1: mig.mode.current \"Maybe\" is not Enabled or Disabled");
}

TEST_CASE("nvidia-smi -L adds the MIG instances under their GPU", "[machine]") {
  std::vector<DetectedGpu> gpus = parse_nvidia_smi_csv(fixture("a100-mig/nvidia-smi.csv"), "smi");
  parse_nvidia_smi_list(fixture("a100-mig/nvidia-smi-L.txt"), "smi -L", gpus);
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[0].mig);
  REQUIRE(gpus[0].mig_instances.size() == 2);
  CHECK(gpus[0].mig_instances[0].profile == "3g.40gb");
  CHECK(gpus[0].mig_instances[0].compute_slices == 3);
  CHECK(gpus[0].mig_instances[0].memory_gb == 40);
  CHECK_FALSE(gpus[1].mig);
  CHECK(gpus[1].mig_instances.empty());
  // Without the CSV, -L names the GPUs; a compute-instance profile and a +me profile parse.
  std::vector<DetectedGpu> listed;
  parse_nvidia_smi_list("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-a)\n  MIG 1c.3g.40gb Device 0: (UUID: MIG-b)\n"
                        "  MIG 1g.10gb+me Device 1: (UUID: MIG-c)\n",
                        "smi -L", listed);
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].name == "NVIDIA H100 80GB HBM3");
  REQUIRE(listed[0].mig_instances.size() == 2);
  CHECK(listed[0].mig_instances[0].compute_slices == 3);
  CHECK(listed[0].mig_instances[1].memory_gb == 10);
  CHECK(error_of([&] { parse_nvidia_smi_list("GPU 0: X (UUID: GPU-a)\n  MIG big Device 0: (UUID: MIG-b)\n", "L", listed); }) ==
        "L:2: a MIG instance whose profile is not like 3g.40gb");
  // A part without its unit (found by mutation, issue 31) is the same clear error, not a crash.
  for (const char* profile : {"3g.40", "40", "3g.", "g.40gb"}) {
    INFO(profile);
    CHECK(error_of([&] {
            parse_nvidia_smi_list("GPU 0: X (UUID: GPU-a)\n  MIG " + std::string(profile) + " Device 0: (UUID: MIG-b)\n",
                                  "L", listed);
          }) == "L:2: a MIG instance whose profile is not like 3g.40gb");
  }
}

TEST_CASE("rocm-smi's JSON gives each card in its number's order", "[machine]") {
  const auto gpus = parse_rocm_smi_json(fixture("mi300x/rocm-smi.json"), "rocm-smi.json");
  REQUIRE(gpus.size() == 8);
  CHECK(gpus[0].name == "AMD Instinct MI300X VF");
  CHECK(gpus[0].vendor == "amd");
  CHECK(gpus[0].memory->value == 206141652992.0);
  // Older rocm-smi: lower-case keys, a PCI id for the series, the product in brackets; card10
  // after card2; a warning before the JSON; a "system" entry that is no card.
  const auto old = parse_rocm_smi_json(
      "WARNING: one GPU is in a low-power state\n"
      R"json({"card10": {"Card series": "Arcturus GL-XL [AMD Instinct MI100]", "VRAM Total Memory (B)": "34342961152"},)json"
      R"json( "card2": {"Card series": "0x738c", "Card model": "0x0c34"}, "system": {"Driver version": "6.2.4"}})json",
      "rocm");
  REQUIRE(old.size() == 2);
  CHECK(old[0].index == 2);
  CHECK(old[0].name == "0x738c");
  CHECK(old[1].name == "Arcturus GL-XL [AMD Instinct MI100]");
  CHECK(parse_rocm_smi_json("{}", "rocm").empty());
  CHECK(error_of([] { parse_rocm_smi_json("Driver not initialized", "rocm"); }) ==
        "rocm: no JSON object in rocm-smi's output");
  // Two product names for one card: which one is the card is not for mlsize to guess.
  CHECK(error_of([] {
          parse_rocm_smi_json("warning\n{\"card0\": {\"Card Series\": \"MI300X\",\n \"Card Series\": \"MI250\"}}",
                              "rocm");
        }) == "rocm:3: duplicate key \"Card Series\" (first at line 2)");
  CHECK(error_of([] { parse_rocm_smi_json("{\"card0\": {\n\"VRAM Total Memory (B)\": NaN}}", "rocm"); }) ==
        "rocm:2: NaN is not a number JSON allows");
  CHECK(error_of([] { parse_rocm_smi_json("{\"card0\": {\n\"VRAM\": }}", "rocm"); }) == "rocm:2: not JSON");
}

TEST_CASE("/proc/cpuinfo gives the model and the sockets and cores and threads", "[machine]") {
  const DetectedCpu dgx = parse_cpuinfo(fixture("h100x8/cpuinfo"), "cpuinfo");
  CHECK(dgx.model == "Intel(R) Xeon(R) Platinum 8480C");
  CHECK(dgx.vendor == "intel");
  CHECK(dgx.sockets == 2);
  CHECK(dgx.cores == 112);
  CHECK(dgx.threads == 224);
  const DetectedCpu ryzen = parse_cpuinfo(fixture("rtx4090/cpuinfo"), "cpuinfo");
  CHECK(ryzen.vendor == "amd");
  CHECK(ryzen.sockets == 1);
  CHECK(ryzen.cores == 16);
  CHECK(ryzen.threads == 32);
  // Arm (Graviton, Grace): no model name, no physical id.
  const DetectedCpu arm = parse_cpuinfo(
      "processor\t: 0\nBogoMIPS\t: 243.75\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n\n"
      "processor\t: 1\nBogoMIPS\t: 243.75\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n",
      "cpuinfo");
  CHECK(arm.model.empty());
  CHECK(arm.vendor == "arm");
  CHECK(arm.threads == 2);
  CHECK(arm.cores == 2);
  CHECK(error_of([] { parse_cpuinfo("MemTotal: 1 kB\n", "cpuinfo"); }) == "cpuinfo: no \"processor\" entries");
}

TEST_CASE("/proc/meminfo and sysctl give the RAM", "[machine]") {
  CHECK(parse_meminfo(fixture("h100x8/meminfo"), "meminfo").value == 2113389396.0 * 1024);
  CHECK(error_of([] { parse_meminfo("MemFree: 12 kB\n", "meminfo"); }) == "meminfo: no MemTotal line");
  const SysctlFacts mac = parse_sysctl(fixture("macos-m3-max/sysctl.txt"), "sysctl.txt");
  CHECK(mac.cpu.model == "Apple M3 Max");
  CHECK(mac.cpu.vendor == "apple");
  CHECK(mac.cpu.threads == 16);
  CHECK(mac.cpu.cores == 16);
  CHECK(mac.memory->value == 51539607552.0);
  CHECK(error_of([] { parse_sysctl("hw.memsize: lots\n", "sysctl.txt"); }) == "sysctl.txt:1: hw.memsize is not a whole number");
  // fuzz_detect's finding: a count beyond an int was cast to one (undefined behaviour).
  CHECK(error_of([] { parse_sysctl("hw.ncpu: 25769803776\n", "sysctl.txt"); }) ==
        "sysctl.txt:1: hw.ncpu is more than a machine has");
  CHECK_FALSE(parse_cpuinfo("processor: 0\nphysical id: 0\ncpu cores: 99999999999\n", "cpuinfo").cores > 1000000);
}

TEST_CASE("read_machine puts the readings together and when lenient notes what it cannot read", "[machine]") {
  const DetectedMachine dgx = recorded("h100x8");
  CHECK(dgx.gpus.size() == 8);
  REQUIRE(dgx.cpu);
  CHECK(dgx.cpu->threads == 224);
  REQUIRE(dgx.memory);
  const DetectedMachine mac = recorded("macos-m3-max");
  CHECK(mac.gpus.empty());
  CHECK(mac.cpu->model == "Apple M3 Max");
  CHECK(mac.memory->value == 51539607552.0);

  MachineReadings bad;
  bad.readings.push_back({MachineSource::nvidia_smi, "0, NVIDIA L4\n", "nvidia-smi"});
  bad.readings.push_back({MachineSource::meminfo, "MemTotal: 1024 kB\n", "/proc/meminfo"});
  CHECK_THROWS_AS(read_machine(bad, false), Error);
  const DetectedMachine lenient = read_machine(bad, true);
  CHECK(lenient.gpus.empty());
  CHECK(lenient.memory->value == 1024.0 * 1024);
  REQUIRE(lenient.notes.size() == 1);
  CHECK(lenient.notes[0] == "nvidia-smi: its output was not understood (2 fields where 5 were expected)");
}

TEST_CASE("reported names map to catalogue devices", "[machine][match]") {
  CHECK(matched_id("NVIDIA H100 80GB HBM3", 81559) == "h100-sxm");
  CHECK(matched_id("NVIDIA H100 PCIe", 81559) == "h100-pcie");
  CHECK(matched_id("NVIDIA H100 NVL", 95830) == "h100-nvl");
  CHECK(matched_id("NVIDIA H200", 143771) == "h200-sxm");
  CHECK(matched_id("NVIDIA A100-SXM4-40GB", 40960) == "a100-40gb-sxm");
  CHECK(matched_id("NVIDIA A100-SXM4-80GB", 81920) == "a100-80gb-sxm");
  CHECK(matched_id("NVIDIA A100-PCIE-40GB", 40960) == "a100-40gb-pcie");
  CHECK(matched_id("NVIDIA A100 80GB PCIe", 81920) == "a100-80gb-pcie");
  CHECK(matched_id("Tesla T4", 15360) == "t4");
  CHECK(matched_id("Tesla V100-SXM2-16GB", 16384) == "v100-sxm2-16gb");
  CHECK(matched_id("Tesla V100-SXM2-32GB", 32768) == "v100-sxm2-32gb");
  CHECK(matched_id("Tesla V100-PCIE-32GB", 32768) == "v100-pcie-32gb");
  CHECK(matched_id("NVIDIA GeForce RTX 4090", 24564) == "rtx-4090");
  CHECK(matched_id("NVIDIA GeForce RTX 3090", 24576) == "rtx-3090");
  CHECK(matched_id("NVIDIA GeForce RTX 3090 Ti", 24564) == "rtx-3090-ti");
  CHECK(matched_id("NVIDIA GeForce RTX 3060", 12288) == "rtx-3060");
  CHECK(matched_id("NVIDIA RTX A6000", 49140) == "rtx-a6000");
  CHECK(matched_id("NVIDIA RTX 6000 Ada Generation", 49140) == "rtx-6000-ada");
  CHECK(matched_id("NVIDIA L4", 23034) == "l4");
  CHECK(matched_id("NVIDIA L40S", 46068) == "l40s");
  CHECK(matched_id("NVIDIA A10G", 23028) == "a10g");
  CHECK(matched_id("NVIDIA A10", 23028) == "a10");
  CHECK(matched_id("NVIDIA B200", 183359) == "b200");
  CHECK(matched_id("NVIDIA GH200 480GB", 97871) == "gh200-96gb");
  CHECK(matched_id("AMD Instinct MI300X", 196592) == "mi300x");
  CHECK(matched_id("AMD Instinct MI300X OAM", 196592) == "mi300x");
  CHECK(matched_id("AMD Instinct MI300X VF", 196592) == "mi300x");
  CHECK(matched_id("Arcturus GL-XL [AMD Instinct MI100]", 32752) == "mi100");
  CHECK(matched_id("AMD Radeon RX 7900 XTX", 24560) == "rx-7900-xtx");
  // CPUs, matched among CPUs only.
  CHECK(matched_id("Intel(R) Xeon(R) Platinum 8480+", std::nullopt, DeviceRole::cpu) == "xeon-8480plus");
  CHECK(matched_id("Intel(R) Xeon(R) Platinum 8275CL CPU @ 3.00GHz", std::nullopt, DeviceRole::cpu) == "xeon-8275cl");
  CHECK(matched_id("AMD EPYC 9654 96-Core Processor", std::nullopt, DeviceRole::cpu) == "epyc-9654");
  CHECK(matched_id("AMD EPYC 7763 64-Core Processor", std::nullopt, DeviceRole::cpu) == "epyc-7763");
  CHECK(matched_id("Intel(R) Xeon(R) CPU Max 9480", std::nullopt, DeviceRole::cpu) == "xeon-max-9480");
  CHECK(matched_id("Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz", std::nullopt, DeviceRole::cpu) ==
        "xeon-azure-fsv2");
  CHECK(matched_id("AMD Ryzen Threadripper PRO 7995WX 96-Cores", std::nullopt, DeviceRole::cpu) ==
        "threadripper-pro-7995wx");
  // Apple's chips are GPUs in the catalogue.
  CHECK(matched_id("Apple M3 Max", 131072) == "apple-m3-max");
}

TEST_CASE("names that differ in variant or form factor or model stay unknown", "[machine][match]") {
  // A Quadro RTX 6000 is not an RTX 6000 Ada, nor an RTX PRO 6000 Blackwell: each is its own.
  CHECK(matched_id("Quadro RTX 6000", 24576) == "quadro-rtx-6000");
  CHECK(matched_id("NVIDIA RTX PRO 6000 Blackwell Server Edition", 97887) == "rtx-pro-6000");
  // A laptop chip is not its desktop card; an M3 is not an M3 Max; a T4 not a T4G.
  CHECK(matched_id("NVIDIA GeForce RTX 4090 Laptop GPU", 16376) == "unknown");
  CHECK(matched_id("Apple M3", 24576) == "unknown");
  CHECK(matched_id("NVIDIA A800-SXM4-80GB", 81920) == "unknown");
  CHECK(matched_id("Intel(R) Xeon(R) Platinum 8480C", std::nullopt, DeviceRole::cpu) == "unknown");
  CHECK(matched_id("Intel(R) Xeon(R) CPU @ 2.20GHz", std::nullopt, DeviceRole::cpu) == "unknown");
  // A GPU's name never matches a CPU, nor a CPU's a GPU.
  CHECK(matched_id("NVIDIA H100 80GB HBM3", 81559, DeviceRole::cpu) == "unknown");
  // An H200 NVL: the catalogue has the SXM part only, and says so.
  const DeviceMatch nvl = match_device(catalog(), "NVIDIA H200 NVL", Bytes(143771.0 * 1024 * 1024), DeviceRole::accelerator);
  CHECK(nvl.device == nullptr);
  CHECK(nvl.note == "not in the catalogue");
  CHECK(nvl.near == std::vector<std::string>{"h200-sxm"});
}

TEST_CASE("a match says where the reported memory differs from the catalogue's", "[machine][match]") {
  const DeviceMatch small = match_device(catalog(), "NVIDIA GeForce RTX 3060", Bytes(8192.0 * 1024 * 1024),
                                         DeviceRole::accelerator);
  REQUIRE(small.device != nullptr);
  CHECK(small.device->id == "rtx-3060");
  CHECK(small.note == "reports 8.0 GiB; the catalogue's rtx-3060 has 12.0 GiB");
  // Without a memory, a size in the name chooses; without either, the first is taken, and said.
  CHECK(matched_id("Tesla V100-SXM2-32GB") == "v100-sxm2-32gb");
  const DeviceMatch blind = match_device(catalog(), "NVIDIA A100 SXM4", std::nullopt, DeviceRole::accelerator);
  REQUIRE(blind.device != nullptr);
  CHECK(blind.note == "the name fits a100-40gb-sxm, a100-80gb-sxm; without its memory, a100-40gb-sxm is taken");
}

TEST_CASE("an overlay device named as the machine names it matches first", "[machine][match]") {
  Catalog own = catalog();
  Device device = *own.find_device("a100-80gb-sxm");
  device.id = "a800-80gb";
  device.name = "NVIDIA A800-SXM4-80GB";
  device.aliases.clear();
  own.put(device);
  const DeviceMatch match = match_device(own, "nvidia  a800-sxm4-80gb", Bytes(81920.0 * 1024 * 1024), DeviceRole::accelerator);
  REQUIRE(match.device != nullptr);
  CHECK(match.device->id == "a800-80gb");
}

TEST_CASE("here plans on eight H100s of the DGX as one owned unit", "[machine][here]") {
  const MachineMap machine = map_machine(recorded("h100x8"), catalog());
  REQUIRE(machine.gpus.size() == 8);
  for (const MappedGpu& gpu : machine.gpus) {
    REQUIRE(gpu.match.device != nullptr);
    CHECK(gpu.match.device->id == "h100-sxm");
    CHECK(gpu.match.note.empty());
  }
  CHECK(machine.cpu_match.device == nullptr);
  const HereHardware here = here_hardware(machine, "this machine");
  CHECK_FALSE(here.cpu_only);
  CHECK(here.device == *catalog().find_device("h100-sxm"));
  CHECK(here.offering.id == "here");
  CHECK(here.offering.kind == OfferingKind::on_prem);
  CHECK(here.offering.device_id == "h100-sxm");
  CHECK(here.offering.devices_per_unit == 8);
  CHECK(here.offering.max_units == 1);
  CHECK(here.offering.vcpus == 224);
  CHECK(here.offering.host_memory->value == 2113389396.0 * 1024);
  CHECK(here.offering.power_w == 8 * *here.device.tdp_w);
  CHECK_FALSE(here.offering.purchase_price);
}

TEST_CASE("here leaves MIG-split GPUs out and takes the largest group of one kind", "[machine][here]") {
  const HereHardware mig = here_hardware(map_machine(recorded("a100-mig"), catalog()), "this machine");
  CHECK(mig.offering.devices_per_unit == 1);
  CHECK(mig.device.id == "a100-80gb-sxm");
  REQUIRE_FALSE(mig.notes.empty());
  CHECK(mig.notes[0] == "GPU 0 (NVIDIA A100-SXM4-80GB) is split by MIG into 3g.40gb, 3g.40gb: left out, as mlsize plans "
                        "on whole GPUs, not MIG instances");

  DetectedMachine mixed;
  mixed.gpus = parse_nvidia_smi_csv(
      "0, NVIDIA GeForce RTX 3090, 24576, 00000000:01:00.0, [N/A]\n1, NVIDIA GeForce RTX 4090, 24564, "
      "00000000:02:00.0, [N/A]\n2, NVIDIA GeForce RTX 4090, 24564, 00000000:03:00.0, [N/A]\n",
      "smi");
  const HereHardware most = here_hardware(map_machine(mixed, catalog()), "this machine");
  CHECK(most.device.id == "rtx-4090");
  CHECK(most.offering.devices_per_unit == 2);
  CHECK(most.notes[0] == "GPU 0 (NVIDIA GeForce RTX 3090) left out: --here plans on the largest group of one kind, "
                         "the 2 rtx-4090");
  // One of each: the larger memory.
  mixed.gpus.pop_back();
  mixed.gpus[0].name = "NVIDIA H100 80GB HBM3";
  mixed.gpus[0].memory = Bytes(81559.0 * 1024 * 1024);
  CHECK(here_hardware(map_machine(mixed, catalog()), "this machine").device.id == "h100-sxm");
}

TEST_CASE("here plans on the memory a card reports when it differs from the catalogue's", "[machine][here]") {
  DetectedMachine machine;
  machine.gpus = parse_nvidia_smi_csv("0, NVIDIA GeForce RTX 3060, 8192, 00000000:01:00.0, [N/A]\n", "smi");
  const HereHardware here = here_hardware(map_machine(machine, catalog()), "this machine");
  CHECK(here.device.id == "rtx-3060");
  CHECK(here.device.memory->value == 8192.0 * 1024 * 1024);
  CHECK(here.notes[0] == "reports 8.0 GiB; the catalogue's rtx-3060 has 12.0 GiB: planned with 8.0 GiB");
}

TEST_CASE("here without a GPU plans on the CPU and on a Mac on the chip's GPU", "[machine][here]") {
  const HereHardware desktop = here_hardware(map_machine(recorded("no-gpu"), catalog()), "this machine");
  CHECK(desktop.cpu_only);
  CHECK(desktop.device.id == "here-cpu");
  CHECK(desktop.device.kind == DeviceKind::cpu);
  CHECK(desktop.device.name == "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz");
  CHECK(desktop.offering.vcpus == 12);
  CHECK(desktop.offering.host_memory->value == 16253212.0 * 1024);
  const HereHardware c5 = here_hardware(map_machine(recorded("no-gpu-c5"), catalog()), "this machine");
  CHECK(c5.device.id == "xeon-8275cl");
  CHECK(c5.offering.vcpus == 8);

  const MachineMap mac = map_machine(recorded("macos-m3-max"), catalog());
  REQUIRE(mac.gpus.size() == 1);
  CHECK(mac.gpus[0].gpu.vendor == "apple");
  REQUIRE(mac.gpus[0].match.device != nullptr);
  const HereHardware m3 = here_hardware(mac, "this machine");
  CHECK_FALSE(m3.cpu_only);
  CHECK(m3.device.id == "apple-m3-max");
  CHECK(m3.device.memory->value == 51539607552.0);  // the 48 GB this Mac has, not the catalogue's 128
  // macOS keeps a share of the RAM: the catalogue's 32 of 128 GiB is 12 of 48.
  CHECK(m3.device.reserved->value == Approx(12.0 * k_gibi));
}

TEST_CASE("here has nothing to plan on with MIG everywhere or an unknown GPU or nothing read", "[machine][here]") {
  DetectedMachine machine;
  machine.gpus = parse_nvidia_smi_csv("0, NVIDIA A100-SXM4-80GB, 81920, 00000000:00:04.0, Enabled\n", "smi");
  CHECK(error_of([&] { here_hardware(map_machine(machine, catalog()), "this machine"); }) ==
        ": every GPU of this machine is split by MIG; mlsize plans on whole GPUs");
  machine.gpus = parse_nvidia_smi_csv("0, NVIDIA H200 NVL, 143771, 00000000:00:04.0, Disabled\n", "smi");
  CHECK(error_of([&] { here_hardware(map_machine(machine, catalog()), "this machine"); }) ==
        ": the GPU \"NVIDIA H200 NVL\" of this machine is not in the catalogue");
  CHECK(error_of([] { here_hardware(MachineMap{}, "this machine"); }) ==
        ": nothing was detected of this machine: no GPU, no CPU");
}

TEST_CASE("each source has its file name and the command that gives it", "[machine]") {
  CHECK(to_string(MachineSource::nvidia_smi) == "nvidia-smi.csv");
  CHECK(to_string(MachineSource::sysctl) == "sysctl.txt");
  const SourceProbe smi = probe_of(MachineSource::nvidia_smi);
  REQUIRE(smi.command.size() == 3);
  CHECK(smi.command[0] == "nvidia-smi");
  CHECK(smi.command[1] == "--query-gpu=index,name,memory.total,pci.bus_id,mig.mode.current");
  CHECK(smi.command[2] == "--format=csv");
  CHECK(probe_of(MachineSource::cpuinfo).file == "/proc/cpuinfo");
  CHECK(probe_of(MachineSource::cpuinfo).command.empty());
}
