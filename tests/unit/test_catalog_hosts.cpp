// Host shapes of the embedded catalogue (issue 27): every cloud offering and free tier states the
// host RAM and vCPUs it rents with its accelerators, or is listed here with the reason no source
// gives them (docs/catalogue.md#host_memory_gib). A row that gains its figures must leave the list.

#include <mlsize/catalog/catalog_loader.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace mlsize;

namespace {

// Offerings whose host RAM no source we could read states (docs/catalogue.md#host_memory_gib).
const std::set<std::string>& without_host_memory() {
  static const std::set<std::string> ids{
      // Cloud TPU v2: no source gives a v2 TPU VM's vCPUs or RAM (v3 and v4: Google's machine types,
      // data/catalog/offerings-accelerators.yaml).
      "gcp-tpu-v2-8", "gcp-tpu-v2-32", "gcp-tpu-v2-128", "gcp-tpu-v2-256", "gcp-tpu-v2-512",
  };
  return ids;
}

// Offerings with host RAM but no vCPUs: Colab's runtimes, whose RAM users report (12.7 GiB
// standard, 83.5 GiB with an A100) and whose vCPUs no source states for today's runtimes.
const std::set<std::string>& without_vcpus_only() {
  static const std::set<std::string> ids{"google-colab-free-t4", "google-colab-pro-t4", "google-colab-pro-a100",
                                         "google-colab-pro-plus-t4", "google-colab-pro-plus-a100"};
  return ids;
}

}  // namespace

TEST_CASE("every cloud offering and free tier states its host RAM and vCPUs, or is listed without a source",
          "[catalog][hosts]") {
  const Catalog catalog = load_default_catalog();
  std::set<std::string> lacking_memory;
  std::set<std::string> lacking_vcpus;
  for (const Offering& o : catalog.offerings()) {
    if (o.kind == OfferingKind::on_prem) continue;
    if (!o.host_memory) lacking_memory.insert(o.id);
    if (!o.vcpus) lacking_vcpus.insert(o.id);
  }
  CHECK(lacking_memory == without_host_memory());
  std::set<std::string> expected_vcpus = without_host_memory();
  expected_vcpus.insert(without_vcpus_only().begin(), without_vcpus_only().end());
  CHECK(lacking_vcpus == expected_vcpus);
}

// A TPU slice is the unit: its host is the slice's TPU VMs together. Google: v5p 4-chip VM 208 vCPUs,
// 448 GB; v5e 8 chips per host, 224 vCPUs and 384 GB; v6e ct6e-standard-4t 180 vCPUs, 720 GiB.
TEST_CASE("TPU slices state the host of the whole slice: VMs x one VM's shape", "[catalog][hosts]") {
  const Catalog catalog = load_default_catalog();
  struct Case {
    const char* id;
    int vms;
    int vcpus_per_vm;
    double gib_per_vm;
  };
  for (const Case& c : {Case{"gcp-tpu-v5p-8", 1, 208, 448}, Case{"gcp-tpu-v5p-512", 64, 208, 448},
                        Case{"gcp-tpu-v5litepod-8", 1, 224, 384}, Case{"gcp-tpu-v5litepod-256", 32, 224, 384},
                        Case{"gcp-tpu-v6e-8", 1, 180, 1440}, Case{"gcp-tpu-v6e-256", 64, 180, 720},
                        // v3-8: one ct3-hightpu-4t; larger v3: ct3p-hightpu-4t per 4 chips; v4: ct4p-hightpu-4t.
                        Case{"gcp-tpu-v3-8", 1, 96, 340}, Case{"gcp-tpu-v3-512", 64, 48, 340},
                        Case{"gcp-tpu-v4-8", 1, 240, 407}, Case{"gcp-tpu-v4-512", 64, 240, 407}}) {
    CAPTURE(c.id);
    const Offering* o = catalog.find_offering(c.id);
    REQUIRE(o != nullptr);
    REQUIRE(o->vcpus);
    REQUIRE(o->host_memory);
    CHECK(*o->vcpus == c.vms * c.vcpus_per_vm);
    CHECK(o->host_memory->value == Approx(c.vms * c.gib_per_vm * 1024.0 * 1024.0 * 1024.0));
  }
}
