// Builds the public counter list of a context: catalog counters whose formulas resolve, then hardware counters.
#include "counters/counter_set.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <unordered_map>

#include "counters/catalog.h"
#include "counters/name_uuid.h"
#include "platform/logging.h"

namespace opengpa {
namespace {

std::string ToLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) {
    if (!joined.empty()) joined += ", ";
    joined += name;
  }
  return joined;
}

bool Fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

// What a formula's names can stand for on this device. Resolution order: hardware counter, then the
// catalog's own constants, then the backend's constants; within each, the first definition of a name wins.
struct FormulaNames {
  std::unordered_map<std::string_view, HardwareCounterIndex> hardware;
  std::unordered_map<std::string_view, double> backend_constants;
};

// Resolves names against `names` and `catalog_constants`. Unknown names do not stop the parse: they are
// collected in *missing so that a formula that is malformed is still reported as an error even when it
// also names a counter this device lacks.
SymbolResolver ResolverFor(const FormulaNames& names,
                           const std::unordered_map<std::string_view, double>& catalog_constants,
                           std::vector<std::string>* missing) {
  return [&names, &catalog_constants, missing](std::string_view name) -> std::optional<Symbol> {
    Symbol symbol;
    if (const auto it = names.hardware.find(name); it != names.hardware.end()) {
      symbol.kind = Symbol::Kind::kInput;
      symbol.input = it->second;
    } else if (const auto c = catalog_constants.find(name); c != catalog_constants.end()) {
      symbol.kind = Symbol::Kind::kConstant;
      symbol.constant = c->second;
    } else if (const auto b = names.backend_constants.find(name); b != names.backend_constants.end()) {
      symbol.kind = Symbol::Kind::kConstant;
      symbol.constant = b->second;
    } else {
      if (std::find(missing->begin(), missing->end(), name) == missing->end()) missing->emplace_back(name);
      symbol.kind = Symbol::Kind::kConstant;  // placeholder; the counter is hidden by the caller
    }
    return symbol;
  };
}

// Adds the counters of catalog number `catalog_index` whose formulas resolve here; false and *error when
// the catalog is malformed or a formula does not parse.
bool AddCatalogCounters(std::size_t catalog_index, std::string_view text, const FormulaNames& names,
                        const std::function<void(PublicCounter)>& add, std::string* error) {
  Catalog catalog;
  std::string catalog_error;
  if (!ParseCatalog(text, &catalog, &catalog_error)) {
    return Fail(error, "catalog " + std::to_string(catalog_index) + ": " + catalog_error);
  }
  std::unordered_map<std::string_view, double> catalog_constants;
  for (const auto& [name, value] : catalog.constants) catalog_constants.emplace(name, value);

  for (std::size_t counter_index = 0; counter_index < catalog.counters.size(); ++counter_index) {
    CounterDefinition& definition = catalog.counters[counter_index];
    std::vector<std::string> missing;
    PublicCounter counter;
    std::string parse_error;
    if (!Expression::Parse(definition.formula, ResolverFor(names, catalog_constants, &missing), &counter.formula,
                           &parse_error)) {
      return Fail(error, "catalog " + std::to_string(catalog_index) + ", counters[" + std::to_string(counter_index) +
                             "] (\"" + definition.name + "\"): " + parse_error);
    }
    if (!missing.empty()) {
      Log(kGpaLoggingDebugCounterDefinitions, "counter \"{}\" is hidden: its formula names {} which this device lacks",
          definition.name, JoinNames(missing));
      continue;
    }
    counter.name = std::move(definition.name);
    counter.group = std::move(definition.group);
    counter.description = std::move(definition.description);
    counter.data_type = definition.data_type;
    counter.usage = definition.usage;
    counter.uuid = CounterUuid(counter.name);
    counter.is_hardware = false;
    add(std::move(counter));
  }
  return true;
}

// Hardware counter `index` exposed as itself (kGpaOpenContextEnableHardwareCountersBit).
PublicCounter HardwareCounterAsItself(const HardwareCounterInfo& info, std::uint32_t index) {
  PublicCounter counter;
  counter.name = info.name;
  counter.group = info.group;
  counter.description = info.description;
  counter.data_type = info.data_type;
  counter.usage = info.usage;
  counter.uuid = CounterUuid(info.name);
  counter.formula = Expression::ForInput(index, info.name);
  counter.is_hardware = true;
  return counter;
}

}  // namespace

bool CounterSet::Build(const std::vector<HardwareCounterInfo>& hardware, const std::vector<std::string_view>& catalogs,
                       const std::vector<std::pair<std::string, double>>& constants, bool include_hardware,
                       CounterSet* out, std::string* error) {
  if (out == nullptr) return Fail(error, "CounterSet::Build: output is null");

  FormulaNames names;
  for (std::size_t i = 0; i < hardware.size(); ++i) {
    names.hardware.emplace(hardware[i].name, static_cast<HardwareCounterIndex>(i));
  }
  for (const auto& [name, value] : constants) names.backend_constants.emplace(name, value);

  // The first counter of a name (case-insensitive) is exposed; a later one is logged and left out.
  CounterSet set;
  const std::function<void(PublicCounter)> add = [&set](PublicCounter counter) {
    std::string key = ToLower(counter.name);
    const auto existing = set.by_lower_name_.find(key);
    if (existing != set.by_lower_name_.end()) {
      Log(kGpaLoggingDebugCounterDefinitions,
          R"(counter "{}" ({}) is not exposed: "{}" (index {}) already has that name)", counter.name,
          counter.is_hardware ? "hardware" : "derived", set.counters_[existing->second].name, existing->second);
      return;
    }
    set.by_lower_name_.emplace(std::move(key), set.size());
    set.counters_.push_back(std::move(counter));
  };

  for (std::size_t catalog_index = 0; catalog_index < catalogs.size(); ++catalog_index) {
    if (!AddCatalogCounters(catalog_index, catalogs[catalog_index], names, add, error)) return false;
  }
  if (include_hardware) {
    for (std::size_t i = 0; i < hardware.size(); ++i) {
      add(HardwareCounterAsItself(hardware[i], static_cast<std::uint32_t>(i)));
    }
  }

  *out = std::move(set);
  return true;
}

std::optional<std::uint32_t> CounterSet::Find(std::string_view name) const {
  const auto it = by_lower_name_.find(ToLower(name));
  if (it == by_lower_name_.end()) return std::nullopt;
  return it->second;
}

std::vector<HardwareCounterIndex> CounterSet::HardwareNeeded(const std::vector<std::uint32_t>& public_indices) const {
  std::vector<HardwareCounterIndex> needed;
  for (std::uint32_t index : public_indices) {
    if (index >= counters_.size()) continue;  // the core validates indices; ignore rather than read past the end
    const std::vector<std::uint32_t>& inputs = counters_[index].formula.Inputs();
    needed.insert(needed.end(), inputs.begin(), inputs.end());
  }
  std::sort(needed.begin(), needed.end());
  needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
  return needed;
}

}  // namespace opengpa
