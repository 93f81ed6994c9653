#include <mlsize/catalog/catalog.hpp>

#include <mlsize/support/text_distance.hpp>

#include <utility>

namespace mlsize {
namespace {

// Returns the entry's place.
template <class Entry, class Index>
std::size_t put_entry(std::vector<Entry>& entries, Index& index, Entry&& entry) {
  // One search of the index: a new id is inserted where the search ended.
  const auto [at, added] = index.try_emplace(entry.id, entries.size());
  if (added) {
    entries.push_back(std::move(entry));
  } else {
    entries[at->second] = std::move(entry);
  }
  return at->second;
}

}  // namespace

const std::optional<Interconnect>& interconnect_of(const Device& device, const Offering* offering) {
  if (offering != nullptr && offering->interconnect) return offering->interconnect;
  return device.interconnect;
}

std::optional<Bytes> Device::usable_memory() const {
  if (!memory) return std::nullopt;
  const bool has_context = kind == DeviceKind::gpu || kind == DeviceKind::npu;
  const Bytes kept = reserved ? *reserved : Bytes(has_context ? k_default_reserved_gib * k_gibi : 0.0);
  return Bytes(memory->value - kept.value);
}

void Catalog::put(Device device) {
  const std::size_t index = put_entry(m_devices, m_device_index, std::move(device));
  for (const std::string& alias : m_devices[index].aliases) m_device_alias_index[alias] = index;
}
void Catalog::put(Offering offering) {
  put_entry(m_offerings, m_offering_index, std::move(offering));
}
namespace {

void note_date(Catalog::Unread& unread, std::string_view as_of) {
  if (unread.oldest_as_of.empty() || as_of < unread.oldest_as_of) unread.oldest_as_of = as_of;
  if (unread.newest_as_of.empty() || as_of > unread.newest_as_of) unread.newest_as_of = as_of;
}

}  // namespace

void Catalog::note_unread(std::string_view as_of) {
  ++m_unread.offerings;
  note_date(m_unread, as_of);
}

void Catalog::note_unread_device(std::string_view as_of) {
  ++m_unread.devices;
  note_date(m_unread, as_of);
}
void Catalog::lay_over(Catalog&& overlay) {
  for (Provider& provider : overlay.m_providers) put(std::move(provider));
  for (Device& device : overlay.m_devices) put(std::move(device));
  reserve_offerings(overlay.m_offerings.size());
  for (Offering& offering : overlay.m_offerings) put(std::move(offering));
  overlay = Catalog{};
}
void Catalog::edit_offerings(const std::function<bool(Offering&)>& edit) {
  std::size_t kept = 0;
  for (Offering& offering : m_offerings) {
    if (!edit(offering)) continue;
    if (&m_offerings[kept] != &offering) m_offerings[kept] = std::move(offering);
    ++kept;
  }
  if (kept == m_offerings.size()) return;
  m_offerings.erase(m_offerings.begin() + static_cast<std::ptrdiff_t>(kept), m_offerings.end());
  m_offering_index.clear();
  m_offering_index.reserve(m_offerings.size());
  for (std::size_t i = 0; i < m_offerings.size(); ++i) m_offering_index.emplace(m_offerings[i].id, i);
}

void Catalog::put(Provider provider) {
  put_entry(m_providers, m_provider_index, std::move(provider));
}

const Provider* Catalog::find_provider(std::string_view id) const {
  auto found = m_provider_index.find(id);
  return found == m_provider_index.end() ? nullptr : &m_providers[found->second];
}

const Device* Catalog::find_device(std::string_view id) const {
  if (auto found = m_device_index.find(id); found != m_device_index.end()) return &m_devices[found->second];
  if (auto found = m_device_alias_index.find(id); found != m_device_alias_index.end()) return &m_devices[found->second];
  return nullptr;
}

std::vector<std::string> Catalog::device_names() const {
  std::vector<std::string> names;
  for (const Device& device : m_devices) {
    names.push_back(device.id);
    names.insert(names.end(), device.aliases.begin(), device.aliases.end());
  }
  return names;
}

const Offering* Catalog::find_offering(std::string_view id) const {
  auto found = m_offering_index.find(id);
  return found == m_offering_index.end() ? nullptr : &m_offerings[found->second];
}

void Catalog::check_references() {
  // One copy of each provider's terms, shared by its offerings.
  std::vector<std::shared_ptr<const ProviderTerms>> terms(m_providers.size());
  for (Offering& offering : m_offerings) {
    const auto found = m_provider_index.find(offering.provider);
    if (found == m_provider_index.end()) continue;
    std::shared_ptr<const ProviderTerms>& shared = terms[found->second];
    if (!shared) {
      const Provider& p = m_providers[found->second];
      shared = std::make_shared<const ProviderTerms>(
          ProviderTerms{p.billing, p.reserved_discount, p.on_demand_limit, p.spot_interruptions, p.marketplace});
    }
    offering.terms = SharedTerms(shared);
  }
  for (const Offering& offering : m_offerings) {
    if (find_device(offering.device_id) != nullptr) continue;
    std::vector<std::string> device_ids;
    for (const Device& device : m_devices) device_ids.push_back(device.id);
    Error error(ErrorKind::input,
                "offering \"" + offering.id + "\" names unknown device \"" + offering.device_id + "\"",
                did_you_mean(offering.device_id, device_ids));
    error.at(offering.defined_at);
    throw error;
  }
}

}  // namespace mlsize
