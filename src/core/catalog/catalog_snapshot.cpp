#include <algorithm>
#include <mlsize/catalog/catalog_snapshot.hpp>

#include <mlsize/support/error.hpp>

#include "core/catalog/catalog_entries.hpp"
#include "core/support/snapshot_bytes.hpp"

#include <cstdint>

namespace mlsize {
namespace {

using snapshot::Reader;
using snapshot::Writer;

void write_device(Writer& w, const Device& d) {
  // The id, date and aliases first, then the length of the rest: a scoped reader passes
  // over a device after reading those (read_catalog_entries).
  w.text(d.id);
  w.text(d.as_of);
  w.u32(static_cast<std::uint32_t>(d.aliases.size()));
  for (const std::string& alias : d.aliases) w.text(alias);
  const std::size_t length = w.begin_length();
  w.text(d.name);
  w.u32(static_cast<std::uint32_t>(d.kind));
  w.text(d.vendor);
  w.optional(d.memory, [&](Bytes b) { w.f64(b.value); });
  w.optional(d.reserved, [&](Bytes b) { w.f64(b.value); });
  w.optional(d.memory_bandwidth_bytes_per_s, [&](double v) { w.f64(v); });
  for (const std::optional<double>& peak : d.peak_flops_per_s) w.optional(peak, [&](double v) { w.f64(v); });
  w.optional(d.cores, [&](int v) { w.i32(v); });
  w.optional(d.interconnect, [&](const Interconnect& link) {
    w.text(link.kind);
    w.f64(link.bandwidth_bytes_per_s);
  });
  w.optional(d.tdp_w, [&](double v) { w.f64(v); });
  w.i32(static_cast<int>(d.host_arch));
  w.optional(d.compute_capability, [&](int v) { w.i32(v); });
  w.optional(d.multiprocessors, [&](int v) { w.i32(v); });
  w.optional(d.launch_price, [&](Usd v) { w.f64(v.value); });
  w.text(d.source);
  w.location(d.defined_at);
  w.end_length(length);
}

Device read_device(Reader& r) {
  Device d;
  d.id = r.text();
  d.as_of = r.text();
  d.aliases.resize(r.count(sizeof(std::uint32_t)));
  for (std::string& alias : d.aliases) alias = r.text();
  const std::uint32_t length = r.u32();
  const std::size_t start = r.offset();
  d.name = r.text();
  d.kind = r.enumerated<DeviceKind>(enum_names(DeviceKind{}).size());
  d.vendor = r.text();
  d.memory = r.optional<Bytes>([&] { return Bytes(r.f64()); });
  d.reserved = r.optional<Bytes>([&] { return Bytes(r.f64()); });
  d.memory_bandwidth_bytes_per_s = r.optional<double>([&] { return r.f64(); });
  for (std::optional<double>& peak : d.peak_flops_per_s) peak = r.optional<double>([&] { return r.f64(); });
  d.cores = r.optional<int>([&] { return r.i32(); });
  d.interconnect = r.optional<Interconnect>([&] {
    Interconnect link;
    link.kind = r.text();
    link.bandwidth_bytes_per_s = r.f64();
    return link;
  });
  d.tdp_w = r.optional<double>([&] { return r.f64(); });
  d.host_arch = r.enumerated<HostArch>(enum_names(HostArch{}).size());
  d.compute_capability = r.optional<int>([&] { return r.i32(); });
  d.multiprocessors = r.optional<int>([&] { return r.i32(); });
  d.launch_price = r.optional<Usd>([&] { return Usd(r.f64()); });
  d.source = r.text();
  d.defined_at = r.location();
  if (r.offset() - start != length) r.fail("a device whose length does not match its fields");
  return d;
}

// A device a scoped reader passed over: where it starts and its date.
struct PassedDevice {
  std::size_t at;
  std::string_view as_of;
};

// Passes over the device at the reader, returning where it starts and its date.
PassedDevice pass_over_device(Reader& r) {
  PassedDevice passed{r.offset(), {}};
  r.view();  // the id
  passed.as_of = r.view();
  for (std::uint32_t n = r.count(sizeof(std::uint32_t)); n > 0; --n) r.view();
  r.skip(r.u32());
  return passed;
}

// Whether the device at `r` is named `name`, by its id or one of its aliases.
bool device_named(Reader r, std::string_view name) {
  if (r.view() == name) return true;
  r.view();  // the date
  for (std::uint32_t n = r.count(sizeof(std::uint32_t)); n > 0; --n) {
    if (r.view() == name) return true;
  }
  return false;
}

void write_billing(Writer& w, const Billing& b) {
  w.f64(b.granularity_seconds);
  w.f64(b.minimum_seconds);
}

Billing read_billing(Reader& r) {
  Billing b;
  b.granularity_seconds = r.f64();
  b.minimum_seconds = r.f64();
  return b;
}

void write_discount(Writer& w, const CommitmentDiscount& d) {
  const auto number = [&](double v) { w.f64(v); };
  w.optional(d.one_year, number);
  w.optional(d.three_year, number);
  w.text(d.source);
}

CommitmentDiscount read_discount(Reader& r) {
  const auto number = [&] { return r.f64(); };
  CommitmentDiscount d;
  d.one_year = r.optional<double>(number);
  d.three_year = r.optional<double>(number);
  d.source = r.text();
  return d;
}

void write_price(Writer& w, const RegionalPrice& p) {
  const auto money = [&](Usd v) { w.f64(v.value); };
  w.text(p.region);
  w.optional(p.on_demand, money);
  w.optional(p.spot, money);
  w.optional(p.reserved_1y, money);
  w.optional(p.reserved_3y, money);
}

void write_availability(Writer& w, const OnDemandLimit& limit, const SpotInterruptions& spot) {
  w.optional(limit.devices, [&](int v) { w.i32(v); });
  w.text(limit.beyond);
  w.u32(static_cast<std::uint32_t>(limit.channels.size()));
  for (const ReservationChannel& c : limit.channels) {
    w.text(c.name);
    w.optional(c.max_machines, [&](int v) { w.i32(v); });
    w.optional(c.min_devices, [&](int v) { w.i32(v); });
    w.optional(c.max_devices, [&](int v) { w.i32(v); });
    w.optional(c.max_days, [&](double v) { w.f64(v); });
  }
  w.text(limit.source);
  w.optional(spot.per_instance_hour, [&](double v) { w.f64(v); });
  w.text(spot.source);
}

void read_availability(Reader& r, OnDemandLimit& limit, SpotInterruptions& spot) {
  limit.devices = r.optional<int>([&] { return r.i32(); });
  limit.beyond = r.text();
  limit.channels.resize(r.count(sizeof(std::uint32_t)));
  for (ReservationChannel& c : limit.channels) {
    c.name = r.text();
    c.max_machines = r.optional<int>([&] { return r.i32(); });
    c.min_devices = r.optional<int>([&] { return r.i32(); });
    c.max_devices = r.optional<int>([&] { return r.i32(); });
    c.max_days = r.optional<double>([&] { return r.f64(); });
  }
  limit.source = r.text();
  spot.per_instance_hour = r.optional<double>([&] { return r.f64(); });
  spot.source = r.text();
}

RegionalPrice read_price(Reader& r) {
  const auto money = [&] { return Usd(r.f64()); };
  RegionalPrice p;
  p.region = r.text();
  p.on_demand = r.optional<Usd>(money);
  p.spot = r.optional<Usd>(money);
  p.reserved_1y = r.optional<Usd>(money);
  p.reserved_3y = r.optional<Usd>(money);
  return p;
}

void write_offering(Writer& w, const Offering& o) {
  const auto number = [&](double v) { w.f64(v); };
  const auto money = [&](Usd v) { w.f64(v.value); };
  const auto whole = [&](int v) { w.i32(v); };
  // The id and date first, then the length of the rest: a scoped reader passes over an
  // offering it does not want after reading those two (read_catalog_entries).
  w.text(o.id);
  w.text(o.as_of);
  const std::size_t length = w.begin_length();
  w.text(o.provider);
  w.u32(static_cast<std::uint32_t>(o.kind));
  w.text(o.name);
  w.text(o.device_id);
  w.i32(o.devices_per_unit);
  w.optional(o.vcpus, whole);
  w.optional(o.threads_per_core, whole);
  w.optional(o.host_memory, [&](Bytes b) { w.f64(b.value); });
  write_price(w, o.price);
  w.u32(static_cast<std::uint32_t>(o.other_regions.size()));
  for (const RegionalPrice& price : o.other_regions) write_price(w, price);
  w.optional(o.max_units, whole);
  w.optional(o.purchase_price, money);
  w.optional(o.power_w, number);
  w.optional(o.limits.session_hours, number);
  w.optional(o.limits.weekly_hours, number);
  w.text(o.limits.note);
  w.optional(o.network_gbps, number);
  w.optional(o.interconnect, [&](const Interconnect& link) {
    w.text(link.kind);
    w.f64(link.bandwidth_bytes_per_s);
  });
  // Not the provider's terms: Catalog::check_references shares them.
  w.text(o.source);
  w.location(o.defined_at);
  w.end_length(length);
}

// The offering whose id was just read.
Offering read_offering(Reader& r, std::string_view id) {
  const auto number = [&] { return r.f64(); };
  const auto money = [&] { return Usd(r.f64()); };
  const auto whole = [&] { return r.i32(); };
  Offering o;
  o.id = id;
  o.as_of = r.text();
  const std::uint32_t length = r.u32();
  const std::size_t start = r.offset();
  o.provider = r.text();
  o.kind = r.enumerated<OfferingKind>(enum_names(OfferingKind{}).size());
  o.name = r.text();
  o.device_id = r.text();
  o.devices_per_unit = r.i32();
  o.vcpus = r.optional<int>(whole);
  o.threads_per_core = r.optional<int>(whole);
  o.host_memory = r.optional<Bytes>([&] { return Bytes(r.f64()); });
  o.price = read_price(r);
  o.other_regions.resize(r.count(sizeof(std::uint32_t)));
  for (RegionalPrice& price : o.other_regions) price = read_price(r);
  o.max_units = r.optional<int>(whole);
  o.purchase_price = r.optional<Usd>(money);
  o.power_w = r.optional<double>(number);
  o.limits.session_hours = r.optional<double>(number);
  o.limits.weekly_hours = r.optional<double>(number);
  o.limits.note = r.text();
  o.network_gbps = r.optional<double>(number);
  o.interconnect = r.optional<Interconnect>([&] {
    Interconnect link;
    link.kind = r.text();
    link.bandwidth_bytes_per_s = r.f64();
    return link;
  });
  o.source = r.text();
  o.defined_at = r.location();
  if (r.offset() - start != length) r.fail("an offering whose length does not match its fields");
  return o;
}

// Passes over the offering whose id was just read, noting its date (Catalog::unread).
void pass_over_offering(Reader& r, Catalog& catalog) {
  const std::string_view as_of = r.view();
  r.skip(r.u32());
  catalog.note_unread(as_of);
}

}  // namespace

void write_catalog_entries(snapshot::Writer& w, const Catalog& catalog) {
  w.u32(static_cast<std::uint32_t>(catalog.providers().size()));
  for (const Provider& p : catalog.providers()) {
    w.text(p.id);
    write_billing(w, p.billing);
    write_discount(w, p.reserved_discount);
    write_availability(w, p.on_demand_limit, p.spot_interruptions);
    w.text(p.marketplace);
    w.text(p.source);
    w.text(p.as_of);
    w.location(p.defined_at);
  }
  w.u32(static_cast<std::uint32_t>(catalog.devices().size()));
  for (const Device& d : catalog.devices()) write_device(w, d);
  w.u32(static_cast<std::uint32_t>(catalog.offerings().size()));
  for (const Offering& o : catalog.offerings()) write_offering(w, o);
}

void read_catalog_entries(Reader& r, Catalog& catalog, const EntryChecks& checks, std::string_view only_offering) {
  for (std::uint32_t n = r.count(sizeof(std::uint32_t)); n > 0; --n) {
    Provider p;
    p.id = r.text();
    p.billing = read_billing(r);
    p.reserved_discount = read_discount(r);
    read_availability(r, p.on_demand_limit, p.spot_interruptions);
    p.marketplace = r.text();
    p.source = r.text();
    p.as_of = r.text();
    p.defined_at = r.location();
    if (checks.provider) checks.provider(p);
    catalog.put(std::move(p));
  }
  // Scoped, the devices are passed over and the one the offering names is read after it.
  const bool scoped = !only_offering.empty();
  const std::uint32_t devices = r.count(sizeof(std::uint32_t));
  std::vector<PassedDevice> passed;
  if (scoped) {
    passed.reserve(devices);
  } else {
    catalog.reserve_devices(devices);
  }
  for (std::uint32_t n = devices; n > 0; --n) {
    if (scoped) {
      passed.push_back(pass_over_device(r));
      continue;
    }
    Device d = read_device(r);
    if (checks.device) checks.device(d);
    catalog.put(std::move(d));
  }
  // The count is checked against the bytes left (an offering takes more than one byte), so
  // the reserve is bounded by them.
  const std::uint32_t offerings = r.count(sizeof(std::uint32_t));
  if (!scoped) catalog.reserve_offerings(offerings);
  for (std::uint32_t n = offerings; n > 0; --n) {
    const std::string_view id = r.view();
    if (scoped && id != only_offering) {
      pass_over_offering(r, catalog);
      continue;
    }
    Offering o = read_offering(r, id);
    if (checks.offering) checks.offering(o);
    catalog.put(std::move(o));
  }
  if (!r.done()) r.fail("trailing bytes after the last entry");
  if (!scoped) return;
  const Offering* wanted = catalog.find_offering(only_offering);
  bool found = false;
  for (const PassedDevice& device : passed) {
    Reader at = r;
    at.seek(device.at);
    if (wanted != nullptr && !found && device_named(at, wanted->device_id)) {
      found = true;
      Device d = read_device(at);
      if (checks.device) checks.device(d);
      catalog.put(std::move(d));
    } else {
      catalog.note_unread_device(device.as_of);
    }
  }
}

std::string write_catalog_snapshot(const Catalog& catalog) {
  Writer w;
  w.u32(k_catalog_layout_version);
  write_catalog_entries(w, catalog);
  return w.take();
}

Catalog read_catalog_snapshot(std::string_view bytes, std::string_view only_offering) {
  Reader r(bytes);
  if (r.u32() != k_catalog_layout_version) {
    throw Error(ErrorKind::input, "the compiled-in catalogue has another layout", "rebuild mlsize");
  }
  Catalog catalog;
  read_catalog_entries(r, catalog, {}, only_offering);
  return catalog;
}

}  // namespace mlsize
