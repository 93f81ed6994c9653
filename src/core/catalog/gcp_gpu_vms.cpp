#include "core/catalog/gcp_gpu_vms.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>

namespace mlsize {
namespace {

// Machine series with fixed GPUs and the accelerator each comes with, as SkyPilot's
// sky/catalog/gcp_catalog.py maps them (docs/catalogue.md#gcp-gpu-vms); the count is in the
// name (a2-highgpu-4g: 4) except for G2, below.
struct Series {
  std::string_view prefix;
  std::string_view accelerator;
};
constexpr std::array k_series{Series{"a2-highgpu-", "A100"},       Series{"a2-megagpu-", "A100"},
                              Series{"a2-ultragpu-", "A100-80GB"}, Series{"a3-highgpu-", "H100"},
                              Series{"a3-edgegpu-", "H100"},       Series{"a3-megagpu-", "H100-MEGA"},
                              Series{"a3-ultragpu-", "H200"},      Series{"a4-highgpu-", "B200"}};

// G2 machine types by vCPUs: L4 count (cloud.google.com/compute/docs/accelerator-optimized-machines#g2-vms).
constexpr std::array<std::pair<std::string_view, int>, 8> k_g2{
    std::pair{"g2-standard-4", 1},  std::pair{"g2-standard-8", 1},  std::pair{"g2-standard-12", 1},
    std::pair{"g2-standard-16", 1}, std::pair{"g2-standard-24", 2}, std::pair{"g2-standard-32", 1},
    std::pair{"g2-standard-48", 4}, std::pair{"g2-standard-96", 8}};

// "gcp-n1-standard-8-v100x1" → host "n1-standard-8", accelerator "V100", count 1.
struct Pairing {
  std::string host;
  std::string accelerator;
  int count = 0;
};
std::optional<Pairing> pairing_of(const Offering& offering) {
  if (offering.provider != "gcp" || !offering.id.starts_with("gcp-n1-")) return std::nullopt;
  const std::string_view id = std::string_view(offering.id).substr(4);
  const std::size_t dash = id.find_last_of('-');
  const std::size_t x = id.find_last_of('x');
  if (dash == std::string_view::npos || x == std::string_view::npos || x < dash) return std::nullopt;
  int count = 0;
  const std::string_view digits = id.substr(x + 1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (error != std::errc() || end != digits.data() + digits.size() || count < 1) return std::nullopt;
  std::string accelerator(id.substr(dash + 1, x - dash - 1));
  for (char& c : accelerator) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return Pairing{std::string(id.substr(0, dash)), accelerator, count};
}

std::string zone_of(const PriceRow& row) {
  return row.zone.empty() ? row.region : row.zone;
}

}  // namespace

std::optional<GcpGpus> gcp_fixed_gpus(std::string_view machine_type) {
  for (const auto& [name, count] : k_g2) {
    if (machine_type == name) return GcpGpus{"L4", count};
  }
  for (const Series& series : k_series) {
    if (!machine_type.starts_with(series.prefix)) continue;
    const std::string_view rest = machine_type.substr(series.prefix.size());
    int count = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), count);
    // "8g", or "8g-nolssd" (a3-edgegpu-8g-nolssd: the same GPUs without local SSD).
    if (error != std::errc() || count < 1 || end == rest.data() + rest.size() || *end != 'g') return std::nullopt;
    return GcpGpus{std::string(series.accelerator), count};
  }
  return std::nullopt;
}

GcpJoin::GcpJoin(const Catalog& catalog) : m_catalog(catalog) {
  for (const Offering& offering : catalog.offerings()) {
    if (const std::optional<Pairing> pairing = pairing_of(offering)) m_paired_host_names.insert(pairing->host);
  }
}

bool GcpJoin::take(const PriceRow& row) {
  if (row.instance.empty()) {
    if (row.accelerator.empty() || row.accelerator.starts_with("tpu-")) return false;
    m_accelerators.push_back(row);
    return true;
  }
  if (!row.accelerator.empty()) return false;
  if (gcp_fixed_gpus(row.instance)) {
    m_hosts.push_back(row);
    return true;
  }
  if (m_paired_host_names.contains(row.instance)) m_paired_hosts.push_back(row);
  return false;
}

GcpJoin::Joined GcpJoin::joined() const {
  Joined result;
  // Accelerator rows by name, count and zone.
  std::map<std::string, const PriceRow*> by_key;
  auto key = [](std::string_view accelerator, int count, const std::string& zone) {
    return std::string(accelerator) + "/" + std::to_string(count) + "/" + zone;
  };
  for (const PriceRow& row : m_accelerators) {
    // A count no VM has (beyond an int: 6.7e22, fuzz_import's finding) pairs with no host;
    // the importer drops its row, naming it, like any count past its sanity limit.
    if (!row.count || *row.count < 1 || *row.count > 1e6) continue;
    by_key.emplace(key(row.accelerator, static_cast<int>(*row.count), zone_of(row)), &row);
  }
  std::vector<const PriceRow*> used;
  // A sum of two prices of five decimals, without the binary float's tail (13.542679999999999).
  auto sum = [](double a, double b) { return std::round((a + b) * 1e6) / 1e6; };
  auto combine = [&](const PriceRow& host, const PriceRow& gpus, std::string instance) {
    PriceRow row = host;
    row.instance = std::move(instance);
    row.accelerator = gpus.accelerator;
    row.count = gpus.count;
    row.gpu_info = gpus.gpu_info;
    row.joined_line = gpus.line;
    row.on_demand =
        host.on_demand && gpus.on_demand ? std::optional(sum(*host.on_demand, *gpus.on_demand)) : std::nullopt;
    row.spot = host.spot && gpus.spot ? std::optional(sum(*host.spot, *gpus.spot)) : std::nullopt;
    used.push_back(&gpus);
    result.rows.push_back(std::move(row));
  };
  int hosts_alone = 0;
  for (const PriceRow& host : m_hosts) {
    const std::optional<GcpGpus> gpus = gcp_fixed_gpus(host.instance);
    const auto found = by_key.find(key(gpus->accelerator, gpus->count, zone_of(host)));
    if (found == by_key.end()) {
      ++hosts_alone;
      continue;
    }
    combine(host, *found->second, host.instance);
  }
  for (const Offering& offering : m_catalog.offerings()) {
    const std::optional<Pairing> pairing = pairing_of(offering);
    if (!pairing) continue;
    for (const PriceRow& host : m_paired_hosts) {
      if (host.instance != pairing->host) continue;
      const auto found = by_key.find(key(pairing->accelerator, pairing->count, zone_of(host)));
      if (found != by_key.end()) combine(host, *found->second, offering.id.substr(4));
    }
  }
  auto add_skip = [&](std::string reason, int rows) {
    if (rows > 0) result.skipped.push_back({std::move(reason), rows});
  };
  add_skip("a GPU VM's host row with no row for its GPUs in the same zone (GCP prices them apart)", hosts_alone);
  int alone = 0;
  for (const PriceRow& row : m_accelerators) {
    if (std::find(used.begin(), used.end(), &row) == used.end()) ++alone;
  }
  add_skip("GPUs priced apart from a host VM with no host the catalogue pairs them with (GCP's attachable GPUs)",
           alone);
  return result;
}

}  // namespace mlsize
