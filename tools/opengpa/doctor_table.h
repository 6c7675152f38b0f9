// `opengpa doctor`'s report for people: per API its verdict, the driver and GPA library it found, a table of the
// checks (measured, truth, tolerance, verdict), and each cause with its fix. The JSON (--format json) holds the
// same and more (docs/schema/doctor.schema.json).
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_TABLE_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_TABLE_H_

#include <nlohmann/json.hpp>

#include <cstddef>
#include <ostream>

namespace opengpa::cli {

// `document` is the doctor's JSON; `width` the terminal's (0: no wrapping).
void WriteDoctorTable(const nlohmann::json& document, std::size_t width, std::ostream& out);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_TABLE_H_
