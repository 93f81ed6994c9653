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

// Why skypilot-catalog's folder `folder` holds no cloud prices (kubernetes, slurm), or "".
std::string_view unpriced_skypilot_folder(std::string_view folder);

// SkyPilot's accelerator name for catalogue device `device_id` on `provider` (the cloud's own
// name where its catalogue differs), or "" when SkyPilot has none.
std::string_view skypilot_accelerator_name(std::string_view provider, std::string_view device_id);

// The catalogue device ids that SkyPilot's accelerator `name` can mean on `provider`: the
// cloud's own reading where it has one, else every device of that name and its other
// spellings, in table order. The importer tells them apart by memory and form factor.
std::vector<std::string_view> devices_of_skypilot_accelerator(std::string_view provider, std::string_view name);

// The devices `name` can also mean when a row's memory says so: parts of other memory
// sizes ("A100" of 80 GB is an A100-80GB part; "H100" of 94 GB the NVL card).
std::vector<std::string_view> memory_variants_of_skypilot_accelerator(std::string_view name);

// Every accelerator name of the tables, once each: the candidates of a did-you-mean.
std::vector<std::string> skypilot_accelerator_names();

}  // namespace mlsize
