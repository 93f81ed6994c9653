#pragma once
// SkyPilot's names for clouds and accelerators, by catalogue provider and device id: one
// table, read by the SkyPilot launch emitter (launch/) and by `catalog import --from
// skypilot` (price_import), which maps the names back.

#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

// SkyPilot's name of the cloud `provider` is ("do" for digitalocean), or "" when SkyPilot
// does not launch there.
std::string_view skypilot_cloud_name(std::string_view provider);
// The catalogue provider whose SkyPilot cloud (and skypilot-catalog folder) is `cloud`, or "".
std::string_view provider_of_skypilot_cloud(std::string_view cloud);

// SkyPilot's accelerator name for catalogue device `device_id` on `provider` (the cloud's own
// name where its catalogue differs), or "" when SkyPilot has none.
std::string_view skypilot_accelerator_name(std::string_view provider, std::string_view device_id);

// The catalogue device ids that SkyPilot's accelerator `name` can mean on `provider`, the
// cloud's own names first, then table order (A100 is the 40 GB SXM part before the PCIe one).
std::vector<std::string_view> devices_of_skypilot_accelerator(std::string_view provider, std::string_view name);

// Every accelerator name of the tables, once each: the candidates of a did-you-mean.
std::vector<std::string> skypilot_accelerator_names();

}  // namespace mlsize
