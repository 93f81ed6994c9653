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
      // Cloud TPU v2, v3, v4: Google's TPU pages give no TPU VM vCPUs or RAM for these generations.
      "gcp-tpu-v2-8", "gcp-tpu-v2-32", "gcp-tpu-v2-128", "gcp-tpu-v2-256", "gcp-tpu-v2-512",  //
      "gcp-tpu-v3-8", "gcp-tpu-v3-32", "gcp-tpu-v3-64", "gcp-tpu-v3-128", "gcp-tpu-v3-256",   //
      "gcp-tpu-v3-512", "gcp-tpu-v4-8", "gcp-tpu-v4-16", "gcp-tpu-v4-32", "gcp-tpu-v4-64",    //
      "gcp-tpu-v4-128", "gcp-tpu-v4-256", "gcp-tpu-v4-384", "gcp-tpu-v4-512",                 //
      // CoreWeave's pricing page gives vCPUs and RAM for the HGX B200 node only.
      "coreweave-hgx-h100", "coreweave-hgx-h200",
      // skypilot-catalog has no a4 VM row, and no copy of Google's A4 machine table was found.
      "gcp-a4-highgpu-8g",
      // RunPod: pod RAM read for the H100 SXM only; the H200 shape read is not these rows' (24 vs 20 vCPUs/GPU).
      "runpod-1x_a100-80gb_secure", "runpod-2x_a100-80gb_secure", "runpod-4x_a100-80gb_secure",
      "runpod-8x_a100-80gb_secure", "runpod-1x_a100-80gb-sxm_secure", "runpod-2x_a100-80gb-sxm_secure",
      "runpod-4x_a100-80gb-sxm_secure", "runpod-8x_a100-80gb-sxm_secure", "runpod-1x_h200-sxm_secure",
      "runpod-2x_h200-sxm_secure", "runpod-4x_h200-sxm_secure", "runpod-8x_h200-sxm_secure",
      "runpod-1x_l4_secure", "runpod-2x_l4_secure", "runpod-4x_l4_secure",
      // Colab: Google states no runtime RAM or vCPUs ("resources are not guaranteed").
      "google-colab-free-t4", "google-colab-pro-t4", "google-colab-pro-a100", "google-colab-pro-plus-t4",
      "google-colab-pro-plus-a100",
  };
  return ids;
}

// Of those, the ones that do state vCPUs (RunPod: skypilot-catalog's vCPUs column).
bool states_vcpus_anyway(const std::string& id) { return id.starts_with("runpod-"); }

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
  std::set<std::string> expected_vcpus;
  for (const std::string& id : without_host_memory())
    if (!states_vcpus_anyway(id)) expected_vcpus.insert(id);
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
                        Case{"gcp-tpu-v6e-8", 1, 180, 1440}, Case{"gcp-tpu-v6e-256", 64, 180, 720}}) {
    CAPTURE(c.id);
    const Offering* o = catalog.find_offering(c.id);
    REQUIRE(o != nullptr);
    REQUIRE(o->vcpus);
    REQUIRE(o->host_memory);
    CHECK(*o->vcpus == c.vms * c.vcpus_per_vm);
    CHECK(o->host_memory->value == Approx(c.vms * c.gib_per_vm * 1024.0 * 1024.0 * 1024.0));
  }
}
