#pragma once
// GCP's GPU VMs in SkyPilot's gcp/vms.csv: a VM with GPUs is priced on two rows, its host
// machine type (InstanceType a2-highgpu-8g, no AcceleratorName) and its GPUs (no InstanceType,
// AcceleratorName A100, AcceleratorCount 8), per zone. SkyPilot adds them (its gcp_catalog.py,
// docs/catalogue.md#gcp-gpu-vms); so does the importer, before the rows are placed.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/catalog/price_import.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

// The GPUs a GCP machine type comes with (a2-ultragpu-4g: 4 A100-80GB; g2-standard-24: 2 L4),
// or nullopt for a machine type without fixed GPUs (n1, c2, ...).
struct GcpGpus {
  std::string accelerator;  // SkyPilot's name
  int count = 0;
};
std::optional<GcpGpus> gcp_fixed_gpus(std::string_view machine_type);

class GcpJoin {
 public:
  explicit GcpJoin(const Catalog& catalog);

  // Keeps a host row of a GPU VM, or an accelerator row (no InstanceType, not a TPU), for
  // joined(); false for any other row, which the caller places itself. An n1 host row is also
  // kept aside (and false returned) when the catalogue pairs that host with attachable GPUs
  // (gcp-n1-standard-8-v100x1).
  bool take(const PriceRow& row);

  struct Joined {
    std::vector<PriceRow> rows;  // one per host row and zone with its GPUs' row: prices added
    std::vector<SkippedRows> skipped;
  };
  Joined joined() const;

 private:
  const Catalog& m_catalog;
  std::set<std::string, std::less<>> m_paired_host_names;  // n1 hosts a catalogue offering pairs with GPUs
  std::vector<PriceRow> m_hosts;                           // GPU VM host rows
  std::vector<PriceRow> m_paired_hosts;                    // n1 host rows that a catalogue offering pairs with GPUs
  std::vector<PriceRow> m_accelerators;                    // accelerator rows
};

}  // namespace mlsize
