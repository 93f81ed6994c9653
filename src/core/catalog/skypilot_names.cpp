#include <mlsize/catalog/skypilot_names.hpp>

#include <algorithm>
#include <array>

namespace mlsize {
namespace {

struct Named {
  std::string_view key;
  std::string_view name;
};

// SkyPilot's names of the clouds it launches on (`infra:`, docs/launch.md#skypilot); also the
// folder names of skypilot-org/skypilot-catalog (catalogs/v9/<cloud>/vms.csv). Every folder of
// catalogs v7-v9 with a vms.csv is here, so `catalog import` takes each cloud's file by its folder.
constexpr std::array k_clouds{Named{"aws", "aws"},
                              Named{"gcp", "gcp"},
                              Named{"azure", "azure"},
                              Named{"lambda", "lambda"},
                              Named{"runpod", "runpod"},
                              Named{"nebius", "nebius"},
                              Named{"cudo", "cudo"},
                              Named{"paperspace", "paperspace"},
                              Named{"digitalocean", "do"},
                              Named{"oci", "oci"},
                              Named{"ibm", "ibm"},
                              Named{"fluidstack", "fluidstack"},
                              Named{"vast", "vast"},
                              Named{"seeweb", "seeweb"},
                              Named{"scp", "scp"},
                              Named{"scaleway", "scaleway"},
                              Named{"ovhcloud", "ovhcloud"},
                              Named{"hyperbolic", "hyperbolic"},
                              Named{"hyperstack", "hyperstack"},
                              Named{"mithril", "mithril"},
                              Named{"primeintellect", "primeintellect"},
                              Named{"shadeform", "shadeform"},
                              Named{"simplepod", "simplepod"},
                              Named{"verda", "verda"},
                              Named{"yotta", "yotta"},
                              Named{"jarvislabs", "jarvislabs"},
                              Named{"lium", "lium"},
                              Named{"spheron", "spheron"},
                              Named{"daytona", "daytona"}};

// Folders of skypilot-catalog that hold no prices of their own, and why (a true reason when
// a file from one is imported without --provider).
constexpr std::array k_unpriced_folders{
    Named{"kubernetes", "SkyPilot's kubernetes folder lists images only: a cluster of your own has no list price"},
    Named{"slurm", "SkyPilot's slurm folder holds a pricing.csv for a cluster of your own, not a cloud's vms.csv"},
    Named{"common", "SkyPilot's common folder lists accelerators, not instances with prices"}};

// SkyPilot's accelerator names (`sky show-gpus -a`, skypilot docs/source/compute/show-gpus-all.txt;
// the AcceleratorName column of skypilot-catalog's vms.csv), by catalogue device id.
constexpr std::array k_accelerators{Named{"a10", "A10"},
                                    Named{"a10g", "A10G"},
                                    Named{"a30", "A30"},
                                    Named{"a40", "A40"},
                                    Named{"a100-40gb-sxm", "A100"},
                                    Named{"a100-40gb-pcie", "A100"},
                                    Named{"a100-80gb-sxm", "A100-80GB"},
                                    Named{"a100-80gb-pcie", "A100-80GB"},
                                    Named{"a800-80gb-pcie", "A800"},
                                    Named{"h100-sxm", "H100"},
                                    Named{"h100-pcie", "H100"},
                                    Named{"h100-nvl", "H100-NVL"},
                                    Named{"h200-sxm", "H200"},
                                    Named{"b200", "B200"},
                                    Named{"b300", "B300"},
                                    Named{"gh200", "GH200"},
                                    Named{"gh200-96gb", "GH200"},
                                    Named{"l4", "L4"},
                                    Named{"l40s", "L40S"},
                                    Named{"t4", "T4"},
                                    Named{"t4g", "T4g"},
                                    Named{"p100-pcie-16gb", "P100"},
                                    Named{"v100-sxm2-16gb", "V100"},
                                    Named{"v100-pcie-16gb", "V100"},
                                    Named{"v100-sxm2-32gb", "V100-32GB"},
                                    Named{"v100-pcie-32gb", "V100-32GB"},
                                    Named{"quadro-rtx-6000", "RTX6000"},
                                    Named{"rtx-a4000", "RTXA4000"},
                                    Named{"rtx-a5000", "RTXA5000"},
                                    Named{"rtx-a6000", "RTXA6000"},
                                    Named{"rtx-6000-ada", "RTX6000-Ada"},
                                    Named{"rtx-3060", "RTX3060"},
                                    Named{"rtx-3090", "RTX3090"},
                                    Named{"rtx-4070", "RTX4070"},
                                    Named{"rtx-4090", "RTX4090"},
                                    Named{"rtx-5070", "RTX5070"},
                                    Named{"rtx-5090", "RTX5090"},
                                    Named{"mi300x", "MI300X"}};

// Other spellings of the same accelerators in the clouds' files, read by `catalog import` only
// (the launch emitter writes the names above): "H100-SXM" (Cudo's GpuInfo), "H100-NVLINK"
// (Fluidstack: an H100 on NVLink, the SXM part), "H100-MEGA" (GCP's a3-megagpu: H100 SXM with
// more network), "RTX PRO 6000 96GB" (Seeweb), "RTXPRO6000" (AWS g7e, RunPod: the Server
// Edition), "RTXPRO6000WS" (Vast) and "RTXPRO6000-WK" (RunPod): the Workstation Edition, and
// AWS's own chips (aws/vms.csv: Trainium, Inferentia2), which `sky show-gpus -a` does not list.
constexpr std::array k_import_aliases{Named{"h100-sxm", "H100-SXM"},
                                      Named{"h100-sxm", "H100-NVLINK"},
                                      Named{"h100-sxm", "H100-MEGA"},
                                      Named{"rtx-pro-6000", "RTX PRO 6000 96GB"},
                                      Named{"rtx-pro-6000", "RTXPRO6000"},
                                      Named{"rtx-pro-6000-ws", "RTXPRO6000WS"},
                                      Named{"rtx-pro-6000-ws", "RTXPRO6000-WK"},
                                      Named{"rtx-a6000", "A6000"},
                                      Named{"trainium", "Trainium"},
                                      Named{"trainium2", "Trainium2"},
                                      Named{"inferentia2", "Inferentia2"}};

// Names the files also use for a part of another memory size, which only the row's memory
// (GpuInfo) tells apart: "H100" for the 94 GB NVL card (Vast, Azure). A name also means the
// larger-memory parts named "<name>-<N>GB" (Cudo's and Seeweb's 80 GB "A100").
// "RTX6000" at Nebius is the 96 GB RTX PRO 6000 (its gpu-rtx6000 platform), at Lambda and Seeweb
// the 24 GB Quadro RTX 6000.
constexpr std::array k_memory_variants{Named{"h100-nvl", "H100"}, Named{"rtx-pro-6000", "RTX6000"}};

// Where a cloud's catalogue names a device otherwise (the same vms.csv files): "provider/device".
// An entry here is the only reading of its name on that cloud.
constexpr std::array k_cloud_accelerators{
    Named{"runpod/h100-sxm", "H100-SXM"}, Named{"runpod/a100-80gb-sxm", "A100-80GB-SXM"},
    Named{"runpod/h200-sxm", "H200-SXM"}, Named{"lambda/rtx-a6000", "A6000"},
    Named{"azure/h100-nvl", "H100"},      Named{"paperspace/rtx-a4000", "A4000"}};

template <std::size_t N>
std::string_view lookup(const std::array<Named, N>& table, std::string_view key) {
  const auto found = std::find_if(table.begin(), table.end(), [&](const Named& n) { return n.key == key; });
  return found == table.end() ? std::string_view() : found->name;
}

std::string cloud_key(std::string_view provider, std::string_view device_id) {
  std::string key(provider);
  key += '/';
  key += device_id;
  return key;
}

}  // namespace

std::string_view skypilot_cloud_name(std::string_view provider) {
  return lookup(k_clouds, provider);
}

std::string_view provider_of_skypilot_cloud(std::string_view cloud) {
  const auto found = std::find_if(k_clouds.begin(), k_clouds.end(), [&](const Named& n) { return n.name == cloud; });
  return found == k_clouds.end() ? std::string_view() : found->key;
}

std::string_view skypilot_accelerator_name(std::string_view provider, std::string_view device_id) {
  const std::string_view name = lookup(k_cloud_accelerators, cloud_key(provider, device_id));
  return name.empty() ? lookup(k_accelerators, device_id) : name;
}

std::string_view unpriced_skypilot_folder(std::string_view folder) {
  return lookup(k_unpriced_folders, folder);
}

std::vector<std::string_view> devices_of_skypilot_accelerator(std::string_view provider, std::string_view name) {
  std::vector<std::string_view> devices;
  for (const Named& entry : k_cloud_accelerators) {
    const std::string_view key = entry.key;
    const std::size_t slash = key.find('/');
    if (entry.name == name && key.substr(0, slash) == provider) devices.push_back(key.substr(slash + 1));
  }
  if (!devices.empty()) return devices;
  auto add = [&devices](std::string_view device) {
    if (std::find(devices.begin(), devices.end(), device) == devices.end()) devices.push_back(device);
  };
  for (const Named& entry : k_accelerators) {
    // A device the cloud names otherwise is not this name there (lambda's rtx-a6000 is "A6000").
    if (entry.name != name || !lookup(k_cloud_accelerators, cloud_key(provider, entry.key)).empty()) continue;
    add(entry.key);
  }
  for (const Named& entry : k_import_aliases) {
    if (entry.name == name) add(entry.key);
  }
  return devices;
}

std::vector<std::string_view> memory_variants_of_skypilot_accelerator(std::string_view name) {
  std::vector<std::string_view> devices;
  auto add = [&devices](std::string_view device) {
    if (std::find(devices.begin(), devices.end(), device) == devices.end()) devices.push_back(device);
  };
  for (const Named& entry : k_memory_variants) {
    if (entry.name == name) add(entry.key);
  }
  for (const Named& entry : k_accelerators) {
    const std::string_view other = entry.name;
    if (other.size() <= name.size() + 3 || !other.starts_with(name) || other[name.size()] != '-') continue;
    const std::string_view size = other.substr(name.size() + 1);
    if (size.ends_with("GB") && size.find_first_not_of("0123456789") == size.size() - 2) add(entry.key);
  }
  return devices;
}

std::vector<std::string> skypilot_accelerator_names() {
  std::vector<std::string> names;
  auto add = [&names](std::string_view name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  };
  for (const Named& entry : k_accelerators) add(entry.name);
  for (const Named& entry : k_cloud_accelerators) add(entry.name);
  for (const Named& entry : k_import_aliases) add(entry.name);
  return names;
}

}  // namespace mlsize
