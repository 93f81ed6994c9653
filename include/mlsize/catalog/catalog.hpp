#pragma once
// The hardware mlsize can recommend: devices (chips) and offerings (ways to get them).

#include <mlsize/support/error.hpp>
#include <mlsize/support/names.hpp>
#include <mlsize/support/units.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mlsize {

// Each enum is followed by its names table (support/names.hpp).
enum class DeviceKind { gpu, tpu, npu, cpu };
constexpr auto enum_names(DeviceKind) {
  using enum DeviceKind;
  return std::to_array<EnumName<DeviceKind>>({{gpu, "gpu"}, {tpu, "tpu"}, {npu, "npu"}, {cpu, "cpu"}});
}
// The instruction set of the host CPU that drives a device: x86-64 unless the catalogue
// says otherwise (Grace Hopper superchips, AWS G5g's Graviton2). Wheels and containers built
// for one do not run on the other (docs/catalogue.md#host_arch).
enum class HostArch { x86_64, arm64 };
constexpr auto enum_names(HostArch) {
  using enum HostArch;
  return std::to_array<EnumName<HostArch>>({{x86_64, "x86_64"}, {arm64, "arm64"}});
}

// The number formats a device states a peak for; the names are the keys of `peak_tflops`.
enum class DType { fp32, tf32, fp16, bf16, fp8, int8 };
constexpr auto enum_names(DType) {
  using enum DType;
  return std::to_array<EnumName<DType>>(
      {{fp32, "fp32"}, {tf32, "tf32"}, {fp16, "fp16"}, {bf16, "bf16"}, {fp8, "fp8"}, {int8, "int8"}});
}
inline constexpr std::size_t k_dtype_count = names<DType>().size();

struct Interconnect {
  std::string kind;                  // nvlink, pcie, infinity-fabric, ici, roce, nvlink-c2c, none
  double bandwidth_bytes_per_s = 0;  // per device, both directions together
  bool operator==(const Interconnect&) const = default;
};

// What a CUDA or ROCm context keeps of a device's memory before PyTorch allocates
// anything: the driver's reserve, the kernels' code and the context's heaps
// (docs/catalogue.md#capacity). TPUs have no per-process context of this kind.
inline constexpr double k_default_reserved_gib = 0.4;

struct Device {
  std::string id;
  std::vector<std::string> aliases;  // other ids that name this device (e.g. a100-80gb)
  std::string name;
  DeviceKind kind = DeviceKind::gpu;
  std::string vendor;
  std::optional<Bytes> memory;  // absent for CPUs: host RAM comes from the offering
  // What the driver and the runtime's context keep of `memory` before the framework
  // allocates; absent: k_default_reserved for GPUs and NPUs (usable_memory()).
  std::optional<Bytes> reserved;
  std::optional<double> memory_bandwidth_bytes_per_s;
  std::array<std::optional<double>, k_dtype_count> peak_flops_per_s{};  // dense, indexed by DType
  // CPUs: the physical cores `peak_flops_per_s` covers (a socket's), so that an offering
  // renting fewer or more cores gets its share (cpu_core_share, docs/methodology.md#time).
  std::optional<int> cores;
  std::optional<Interconnect> interconnect;
  std::optional<double> tdp_w;
  std::optional<Usd> launch_price;
  HostArch host_arch = HostArch::x86_64;
  // NVIDIA's compute capability as major × 10 + minor (70 Volta, 75 Turing, 80 and 86
  // Ampere, 89 Ada, 90 Hopper, 100 and 103 Blackwell, 120 Blackwell RTX): which quantised
  // weight and attention kernels run (estimate/kernels.hpp). Absent for other vendors.
  std::optional<int> compute_capability;
  // Streaming multiprocessors (NVIDIA): XGBoost's GPU tree builder runs at a rate per SM
  // (estimate/gbdt.hpp). The datasheet's CUDA cores over the FP32 lanes of one SM of the
  // architecture (64 on GP100, GV100, TU10x and GA100; 128 on GA10x, AD10x, GH100, GB).
  std::optional<int> multiprocessors;
  std::string source;
  std::string as_of;
  SourceLocation defined_at;

  std::optional<double> peak(DType dtype) const { return peak_flops_per_s[static_cast<std::size_t>(dtype)]; }
  // The memory a framework can allocate: `memory` less what is reserved (docs/catalogue.md#capacity).
  std::optional<Bytes> usable_memory() const;
  bool operator==(const Device&) const = default;
};

enum class OfferingKind { cloud, on_prem, free_tier };
constexpr auto enum_names(OfferingKind) {
  using enum OfferingKind;
  return std::to_array<EnumName<OfferingKind>>({{cloud, "cloud"}, {on_prem, "on-prem"}, {free_tier, "free-tier"}});
}

// How a provider bills: in steps of `granularity_seconds`, at least `minimum_seconds` per
// unit. The default (1 s, no minimum) charges exactly the hours used.
struct Billing {
  double granularity_seconds = 1.0;
  double minimum_seconds = 0.0;
  bool operator==(const Billing&) const = default;
};

// The typical discount off on-demand a provider gives for a 1- or 3-year commitment, a
// share in [0, 1). It prices a reservation as an estimate where an offering lists no
// reserved price of its own (docs/catalogue.md#reserved_discount).
struct CommitmentDiscount {
  std::optional<double> one_year;
  std::optional<double> three_year;
  std::string source;
  bool operator==(const CommitmentDiscount&) const = default;
};

// The most devices one plan gets on demand from a provider without a reservation, capacity
// block or quota request, and what a larger plan takes (docs/catalogue.md#availability).
// A way to get capacity beyond the on-demand limit (EC2 Capacity Blocks, GCP's calendar-mode
// reservations, Lambda's 1-Click Clusters) and the plans it can hold: a plan of more machines
// or devices, or longer, than it states is not covered (docs/catalogue.md#availability).
struct ReservationChannel {
  std::string name;
  std::optional<int> max_machines;  // instances in one reservation
  std::optional<int> min_devices;   // GPUs in one reservation
  std::optional<int> max_devices;
  std::optional<double> max_days;  // the longest reservation
  bool operator==(const ReservationChannel&) const = default;
  // Whether a plan of `machines` machines and `devices` devices for `days` days fits it.
  bool covers(int machines, int devices, double days) const {
    return (!max_machines || machines <= *max_machines) && (!min_devices || devices >= *min_devices) &&
           (!max_devices || devices <= *max_devices) && (!max_days || days <= *max_days);
  }
};

struct OnDemandLimit {
  std::optional<int> devices;                // none: the provider states none (k_default_on_demand_devices)
  std::string beyond;                        // what a plan above it takes
  std::vector<ReservationChannel> channels;  // the reservations `beyond` names, with their bounds
  std::string source;
  bool operator==(const OnDemandLimit&) const = default;
};

// How often a provider takes spot capacity back: expected interruptions per instance-hour
// (docs/catalogue.md#availability).
struct SpotInterruptions {
  std::optional<double> per_instance_hour;  // none: not stated (k_default_spot_interruptions_per_hour)
  std::string source;
  bool operator==(const SpotInterruptions&) const = default;
};

// A provider's terms as its offerings see them: one copy per provider, shared by all of
// them (Catalog::check_references), not one per offering (issue 49: 100,000 offerings held
// 130 MB of copies).
struct ProviderTerms {
  Billing billing;
  CommitmentDiscount reserved_discount;
  OnDemandLimit on_demand_limit;
  SpotInterruptions spot_interruptions;
  std::string marketplace;
  bool operator==(const ProviderTerms&) const = default;
};

// An offering's view of its provider's terms, compared by value; the defaults until
// Catalog::check_references shares the provider's.
class SharedTerms {
 public:
  SharedTerms() = default;
  explicit SharedTerms(std::shared_ptr<const ProviderTerms> terms) : m_terms(std::move(terms)) {}
  const ProviderTerms& operator*() const { return m_terms ? *m_terms : k_defaults; }
  const ProviderTerms* operator->() const { return &**this; }
  bool operator==(const SharedTerms& other) const { return **this == *other; }

 private:
  static inline const ProviderTerms k_defaults{};
  std::shared_ptr<const ProviderTerms> m_terms;
};

// Facts about a provider that hold for all its offerings.
struct Provider {
  std::string id;
  Billing billing;
  CommitmentDiscount reserved_discount;
  OnDemandLimit on_demand_limit;
  SpotInterruptions spot_interruptions;
  // Non-empty for a marketplace (Vast): its offerings are single hosts' listings, each priced
  // and kept by its host; the text says what that means for a run (recommend --no-marketplace).
  std::string marketplace;
  std::string source;
  std::string as_of;
  SourceLocation defined_at;
  bool operator==(const Provider&) const = default;
};

struct FreeTierLimits {
  std::optional<double> session_hours;
  std::optional<double> weekly_hours;
  std::string note;
  bool operator==(const FreeTierLimits&) const = default;
};

// What one unit of an offering costs per hour in one region, by kind of commitment
// (docs/catalogue.md#prices). Reserved: the effective hourly rate of a 1- or 3-year
// commitment, its whole price spread over the term's hours.
struct RegionalPrice {
  std::string region;
  std::optional<Usd> on_demand;
  std::optional<Usd> spot;
  std::optional<Usd> reserved_1y;
  std::optional<Usd> reserved_3y;
  bool operator==(const RegionalPrice&) const = default;
};

struct Offering {
  std::string id;
  std::string provider;
  OfferingKind kind = OfferingKind::cloud;
  std::string name;
  std::string device_id;
  int devices_per_unit = 1;
  std::optional<int> vcpus;
  // Hardware threads per physical core behind `vcpus`; none: 2, the x86 clouds' (a machine
  // --here detected states its own: 1 without SMT).
  std::optional<int> threads_per_core;
  std::optional<Bytes> host_memory;
  // Per unit, in the region plans use: after the catalogue is loaded the cheapest listed,
  // after choose_regions the one chosen there.
  RegionalPrice price;
  std::vector<RegionalPrice> other_regions;  // the same offering's prices elsewhere
  std::optional<int> max_units;              // how many units one plan may combine
  std::optional<Usd> purchase_price;         // on-premise
  std::optional<double> power_w;             // on-premise wall power
  FreeTierLimits limits;
  std::optional<double> network_gbps;  // inter-node network per unit, Gbit/s (multi-node topology)
  // The link between the unit's devices where it is not the device's own: a VM cut from a
  // larger board without its NVLink (docs/catalogue.md#interconnect-of-vm-slices).
  std::optional<Interconnect> interconnect;
  // Billing, discounts, availability, marketplace: the provider's entry's
  // (Catalog::check_references).
  SharedTerms terms;
  std::string source;
  std::string as_of;
  SourceLocation defined_at;
  bool operator==(const Offering&) const = default;
};

// The link between the devices of a plan on `offering` (none: off any offering): the
// offering's own where it states one, else the device's.
const std::optional<Interconnect>& interconnect_of(const Device& device, const Offering* offering);

// Devices and offerings by id; adding an entry with an existing id replaces it.
class Catalog {
 public:
  void put(Device device);
  void put(Offering offering);
  void put(Provider provider);

  // By id, or else by one of the devices' aliases.
  const Device* find_device(std::string_view id) const;
  // Every name find_device accepts (ids, then each device's aliases), for did-you-mean.
  std::vector<std::string> device_names() const;
  const Offering* find_offering(std::string_view id) const;
  const std::vector<Device>& devices() const { return m_devices; }
  const std::vector<Offering>& offerings() const { return m_offerings; }
  const std::vector<Provider>& providers() const { return m_providers; }
  const Provider* find_provider(std::string_view id) const;

  // Room for `offerings` more offerings: a reader that knows the count moves none of them
  // twice (issue 49).
  void reserve_offerings(std::size_t offerings) {
    m_offerings.reserve(m_offerings.size() + offerings);
    m_offering_index.reserve(m_offering_index.size() + offerings);
  }
  // The same for devices: growing their vector by doubling touched 20 more pages of memory
  // (issue 49).
  void reserve_devices(std::size_t devices) {
    m_devices.reserve(m_devices.size() + devices);
    m_device_index.reserve(m_device_index.size() + devices);
  }

  // Edits each offering in place and drops those `edit` returns false for, in one pass: a
  // catalogue repriced without a copy of it (choose_regions).
  void edit_offerings(const std::function<bool(Offering&)>& edit);

  // Moves every entry of `overlay` in, each replacing the entry of the same id (a compiled
  // overlay laid over the catalogue, as a YAML overlay's entries are).
  void lay_over(Catalog&& overlay);

  // Throws Error (input) when an offering names a device that does not exist; gives each
  // offering its provider's billing. Call after the last file is loaded.
  void check_references();

  // The offerings and devices a scoped read passed over (read_catalog_snapshot's
  // `only_offering`): not in offerings() and devices(), counted here with the span of their
  // dates, which the report's provenance states for the whole catalogue. A catalogue with
  // some takes no overlay.
  struct Unread {
    std::size_t offerings = 0;
    std::size_t devices = 0;
    std::string oldest_as_of;  // YYYY-MM-DD: text order is date order
    std::string newest_as_of;
  };
  void note_unread(std::string_view as_of);
  void note_unread_device(std::string_view as_of);
  const Unread& unread() const { return m_unread; }

 private:
  std::vector<Device> m_devices;
  std::vector<Offering> m_offerings;
  std::vector<Provider> m_providers;
  // Ids to their entries: hashed, looked up by string_view without a copy. Every command
  // builds the offerings' index from scratch, so its inserts count (issue 49: a tree's were
  // 0.9 M instructions for 514 offerings).
  struct IdHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view id) const noexcept { return std::hash<std::string_view>{}(id); }
  };
  using Index = std::unordered_map<std::string, std::size_t, IdHash, std::equal_to<>>;
  Index m_provider_index;
  Index m_device_index;
  Index m_device_alias_index;
  Index m_offering_index;
  Unread m_unread;
};

}  // namespace mlsize
