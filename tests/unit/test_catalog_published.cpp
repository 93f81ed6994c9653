// Figures of the embedded catalogue checked against the published figures they were derived
// from (issue 16: the GPU/TPU holes). Each check restates the source's number and the
// derivation, so a change to the YAML that breaks the link fails here.

#include <mlsize/catalog/catalog_loader.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace mlsize;

namespace {

const Device& device(const Catalog& catalog, const char* id) {
  const Device* found = catalog.find_device(id);
  REQUIRE(found != nullptr);
  return *found;
}

double tflops(const Device& device, DType dtype) {
  const std::optional<double> peak = device.peak(dtype);
  REQUIRE(peak.has_value());
  return *peak / 1e12;
}

}  // namespace

// NVIDIA RTX A5000 datasheet: "Tensor Performance 222.2 TFLOPS" (FP16, 2:4 sparsity);
// dense = half, BF16 at the FP16 rate on GA102, TF32 half of that, INT8 twice.
TEST_CASE("RTX A5000 tensor rates are the datasheet's sparse figure halved", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  const Device& a5000 = device(catalog, "rtx-a5000");
  const double datasheet_sparse = 222.2;
  CHECK(tflops(a5000, DType::fp16) == Approx(datasheet_sparse / 2).epsilon(1e-3));
  CHECK(tflops(a5000, DType::bf16) == Approx(datasheet_sparse / 2).epsilon(1e-3));
  CHECK(tflops(a5000, DType::tf32) == Approx(datasheet_sparse / 4).epsilon(1e-3));
  CHECK(tflops(a5000, DType::int8) == Approx(datasheet_sparse).epsilon(1e-3));
  CHECK(tflops(a5000, DType::fp32) == Approx(27.8).epsilon(1e-3));
  // The same convention as the A4000 (153.4 sparse) beside it.
  CHECK(tflops(device(catalog, "rtx-a4000"), DType::bf16) == Approx(153.4 / 2).epsilon(1e-3));
}

// NVIDIA A40 datasheet: "Peak BF16 Tensor TFLOPS with FP32 Accumulate 149.7 | 299.4*".
TEST_CASE("A40 carries the datasheet's dense BF16 rate", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  CHECK(tflops(device(catalog, "a40"), DType::bf16) == Approx(149.7).margin(0.05));
}

// Every GPU that runs BF16 carries a bf16 rate; the ones without are the parts that lack the
// format (Volta, Turing, Kepler) or whose rate no source gives (listed with the reason).
TEST_CASE("GPUs without a bf16 rate are the ones that lack it or lack a source", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  const std::set<std::string> expected{
      "t4",           "t4g",            // Turing: FP16 tensor cores, no BF16
      "v100-sxm2-16gb", "v100-sxm2-32gb", "v100-pcie-16gb", "v100-pcie-32gb",  // Volta: no BF16
      "k80",            // Kepler: no tensor cores
      "p100-pcie-16gb",   // Pascal: no tensor cores, no BF16
      "quadro-rtx-6000",  // Turing: FP16 tensor cores, no BF16
      "rx-7900-xtx",    // RDNA3 BF16 WMMA rate not sourced
      "apple-m2-ultra", "apple-m3-max",  // GPU matrix rates unpublished
  };
  std::set<std::string> without;
  for (const Device& d : catalog.devices())
    if (d.kind == DeviceKind::gpu && !d.peak(DType::bf16)) without.insert(d.id);
  CHECK(without == expected);
}

// AnandTech's launch table for the Tesla K80 board: 8.74 TFLOPS FP32 (boost), 2 x 12 GB,
// 300 W. Colab gave one of its two GK210s: nvidia-smi showed 11441 MiB.
TEST_CASE("K80 is one GK210: half the board, as Colab gave it", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  const Device& k80 = device(catalog, "k80");
  CHECK(tflops(k80, DType::fp32) == Approx(8.74 / 2).epsilon(1e-3));
  CHECK(k80.memory->value == Approx(11441.0 * 1024 * 1024).epsilon(1e-6));
  CHECK(*k80.memory_bandwidth_bytes_per_s == Approx(480e9 / 2));
  CHECK(*k80.tdp_w == Approx(300.0 / 2));
  CHECK_FALSE(k80.peak(DType::bf16).has_value());
  CHECK_FALSE(k80.peak(DType::fp16).has_value());
  CHECK(k80.name.find("retired") != std::string::npos);
  // Retired: nothing rents it any more, so nothing can recommend it.
  for (const Offering& o : catalog.offerings()) CHECK(o.device_id != "k80");
}

namespace {

const Offering& offering(const Catalog& catalog, const char* id) {
  const Offering* found = catalog.find_offering(id);
  REQUIRE(found != nullptr);
  return *found;
}

// On demand, in the cheapest listed region (the loader's choice before --region).
double hourly(const Offering& o) {
  REQUIRE(o.price.on_demand.has_value());
  return o.price.on_demand->value;
}

}  // namespace

// skypilot-catalog catalogs/v7/gcp/vms.csv@017e2502: tpu-v4-8 $12.88/h, and every v4 slice at the
// same $3.22 per chip-hour; vN-M slices count TensorCores, two per chip (Google's TPU pages).
TEST_CASE("TPU v2, v3 and v4 slices: chips are half the cores, v4 at $3.22 a chip-hour", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  for (const char* id : {"gcp-tpu-v4-8", "gcp-tpu-v4-16", "gcp-tpu-v4-32", "gcp-tpu-v4-64", "gcp-tpu-v4-128",
                         "gcp-tpu-v4-256", "gcp-tpu-v4-384", "gcp-tpu-v4-512"}) {
    INFO(id);
    const Offering& slice = offering(catalog, id);
    CHECK(slice.device_id == "tpu-v4");
    const int cores = std::stoi(std::string(id).substr(std::string("gcp-tpu-v4-").size()));
    CHECK(slice.devices_per_unit * 2 == cores);
    CHECK(hourly(slice) / slice.devices_per_unit == Approx(3.22).epsilon(1e-9));
  }
  CHECK(hourly(offering(catalog, "gcp-tpu-v4-8")) == Approx(12.88));
  CHECK(offering(catalog, "gcp-tpu-v4-8").price.region == "us-central2");
  // v3-8: $8.00 in us-central1 and us-east1, $8.80 in europe-west4; no spot in us-east1.
  const Offering& v3 = offering(catalog, "gcp-tpu-v3-8");
  CHECK(v3.devices_per_unit == 4);
  CHECK(hourly(v3) == Approx(8.0));
  CHECK(v3.price.region == "us-central1");
  REQUIRE(v3.other_regions.size() == 2);
  for (const RegionalPrice& r : v3.other_regions) {
    INFO(r.region);
    if (r.region == "europe-west4") {
      CHECK(r.on_demand->value == Approx(8.8));
    } else {
      CHECK(r.region == "us-east1");
      CHECK(r.on_demand->value == Approx(8.0));
      CHECK_FALSE(r.spot.has_value());
    }
  }
  // v2-8: $4.50 in us-central1 (the cheapest of three regions).
  const Offering& v2 = offering(catalog, "gcp-tpu-v2-8");
  CHECK(v2.devices_per_unit == 4);
  CHECK(hourly(v2) == Approx(4.5));
  CHECK(v2.other_regions.size() == 2);
}

// coreweave.com/pricing (read 2026-09-20): HGX H100 $49.24/h for 8 GPUs, spot $19.71.
// skypilot-catalog catalogs/v6/oci/vms.csv@6e3a02d2: BM.GPU.A100-v2.8 $32/h for 8 A100 80GB.
TEST_CASE("8-GPU cluster nodes at their published prices", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  const Offering& cw = offering(catalog, "coreweave-hgx-h100");
  CHECK(cw.device_id == "h100-sxm");
  CHECK(cw.devices_per_unit == 8);
  CHECK(hourly(cw) == Approx(49.24));
  CHECK(cw.price.spot->value == Approx(19.71));
  const Offering& oci = offering(catalog, "oci-bm.gpu.a100-v2.8");
  CHECK(oci.device_id == "a100-80gb-sxm");
  CHECK(oci.devices_per_unit == 8);
  CHECK(hourly(oci) == Approx(32.0));
}

namespace {

double gbs(const Device& device) {
  REQUIRE(device.memory_bandwidth_bytes_per_s.has_value());
  return *device.memory_bandwidth_bytes_per_s / 1e9;
}

// The CPU convention (devices.yaml header): channels x MT/s x 8 bytes, per socket, in GB/s.
double channels_gbs(int channels, double mega_transfers) { return channels * mega_transfers * 8 / 1e3; }

}  // namespace

// Issue 27: each CPU's per-socket bandwidth from its sourced channel count and DIMM speed.
TEST_CASE("CPU bandwidths are channels x MT/s x 8 bytes from their sources", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  // 4th Gen Xeon Scalable: 8 DDR5 channels up to 4800 MT/s (WWT memory population guidelines);
  // GCP C3 = 8481C, AWS c7i = 8488C.
  CHECK(gbs(device(catalog, "xeon-8481c")) == Approx(channels_gbs(8, 4800)));
  CHECK(gbs(device(catalog, "xeon-sapphire-rapids-aws-c7i")) == Approx(channels_gbs(8, 4800)));
  // Cascade Lake: 6 DDR4 channels at 2933 MT/s (Wikipedia de, WikiChip); GCP c2 = Gold 6253CL.
  CHECK(gbs(device(catalog, "xeon-6253cl")) == Approx(channels_gbs(6, 2933)));
  // Azure Fsv2: the family's lowest, the 8168's six DRAM channels (Azure HC-series overview) at 2666.
  CHECK(gbs(device(catalog, "xeon-azure-fsv2")) == Approx(channels_gbs(6, 2666)));
  // AWS t2.micro: Xeon E5-2676 v3 (templexxx/reedsolomon README), Haswell-EP, 4 x DDR4-2133.
  CHECK(gbs(device(catalog, "xeon-aws-t2")) == Approx(channels_gbs(4, 2133)));
  // Threadripper 3990X: TRX40 quad-channel (wccftech), DDR4-3200 (ASCII.jp); cpu-monkey ">102 GB/s".
  CHECK(gbs(device(catalog, "threadripper-3990x")) == Approx(channels_gbs(4, 3200)));
  CHECK(gbs(device(catalog, "threadripper-3990x")) > 102);
  // Threadripper PRO 7995WX: WRX90's 8 channels, at the DDR5-4800 of a sourced 7975WX system.
  CHECK(gbs(device(catalog, "threadripper-pro-7995wx")) == Approx(channels_gbs(8, 4800)));
}

// Issue 27, done when: no device of the default catalogue lacks a memory bandwidth (it bounds
// every decode step; without it a CPU decoded at its compute rate, hundreds of tokens/s for 70B).
TEST_CASE("every device of the default catalogue has a memory bandwidth", "[catalog][published]") {
  const Catalog catalog = load_default_catalog();
  std::set<std::string> missing;
  for (const Device& d : catalog.devices()) {
    if (!d.memory_bandwidth_bytes_per_s) missing.insert(d.id);
  }
  INFO("e.g. " << (missing.empty() ? std::string("none") : *missing.begin()));
  CHECK(missing.empty());
}
