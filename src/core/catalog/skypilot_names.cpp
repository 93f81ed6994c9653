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
// folder names of skypilot-org/skypilot-catalog (catalogs/v7/<cloud>/vms.csv).
constexpr std::array k_clouds{
    Named{"aws", "aws"},        Named{"gcp", "gcp"},       Named{"azure", "azure"}, Named{"lambda", "lambda"},
    Named{"runpod", "runpod"},  Named{"nebius", "nebius"}, Named{"cudo", "cudo"},   Named{"paperspace", "paperspace"},
    Named{"digitalocean", "do"}};

// SkyPilot's accelerator names (`sky show-gpus -a`, skypilot docs/source/compute/show-gpus-all.txt;
// the AcceleratorName column of skypilot-catalog's vms.csv), by catalogue device id.
constexpr std::array k_accelerators{Named{"a10", "A10"},
                                    Named{"a10g", "A10G"},
                                    Named{"a40", "A40"},
                                    Named{"a100-40gb-sxm", "A100"},
                                    Named{"a100-40gb-pcie", "A100"},
                                    Named{"a100-80gb-sxm", "A100-80GB"},
                                    Named{"a100-80gb-pcie", "A100-80GB"},
                                    Named{"h100-sxm", "H100"},
                                    Named{"h100-pcie", "H100"},
                                    Named{"h100-nvl", "H100-NVL"},
                                    Named{"h200-sxm", "H200"},
                                    Named{"b200", "B200"},
                                    Named{"gh200", "GH200"},
                                    Named{"gh200-96gb", "GH200"},
                                    Named{"l4", "L4"},
                                    Named{"l40s", "L40S"},
                                    Named{"t4", "T4"},
                                    Named{"t4g", "T4g"},
                                    Named{"v100-sxm2-16gb", "V100"},
                                    Named{"v100-pcie-16gb", "V100"},
                                    Named{"v100-sxm2-32gb", "V100-32GB"},
                                    Named{"v100-pcie-32gb", "V100-32GB"},
                                    Named{"rtx-a4000", "RTXA4000"},
                                    Named{"rtx-a5000", "RTXA5000"},
                                    Named{"rtx-a6000", "RTXA6000"},
                                    Named{"rtx-6000-ada", "RTX6000-Ada"},
                                    Named{"rtx-3090", "RTX3090"},
                                    Named{"rtx-4090", "RTX4090"},
                                    Named{"rtx-5090", "RTX5090"},
                                    Named{"mi300x", "MI300X"}};

// Where a cloud's catalogue names a device otherwise (the same vms.csv files): "provider/device".
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

std::vector<std::string_view> devices_of_skypilot_accelerator(std::string_view provider, std::string_view name) {
  std::vector<std::string_view> devices;
  for (const Named& entry : k_cloud_accelerators) {
    const std::string_view key = entry.key;
    const std::size_t slash = key.find('/');
    if (entry.name == name && key.substr(0, slash) == provider) devices.push_back(key.substr(slash + 1));
  }
  for (const Named& entry : k_accelerators) {
    // A device the cloud names otherwise is not this name there (lambda's rtx-a6000 is "A6000").
    if (entry.name != name || !lookup(k_cloud_accelerators, cloud_key(provider, entry.key)).empty()) continue;
    if (std::find(devices.begin(), devices.end(), entry.key) == devices.end()) devices.push_back(entry.key);
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
  return names;
}

}  // namespace mlsize
