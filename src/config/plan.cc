#include "config/plan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <sstream>

// Errors as values (the project does not use exceptions across layers).
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

namespace sb::config {
namespace {

int LineOf(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

Status Bad(const std::string& path, int line, const std::string& what) {
  return Status::InvalidArgument(path + ":" + std::to_string(line) + ": " + what);
}

// A scalar as option text: strings as they are, booleans as Y/N, numbers as written.
Result<std::string> ScalarText(const toml::node& n, const std::string& path,
                               const std::string& key) {
  if (const auto* s = n.as_string()) return s->get();
  if (const auto* b = n.as_boolean()) return std::string(b->get() ? "Y" : "N");
  if (const auto* i = n.as_integer()) return std::to_string(i->get());
  if (const auto* f = n.as_floating_point()) {
    std::ostringstream out;
    out << f->get();
    return out.str();
  }
  return Bad(path, LineOf(n), "key '" + key + "' must be a string, number or boolean");
}

Status ReadValues(const toml::table& t, const std::string& path, std::vector<PlanValue>* out) {
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    auto text = ScalarText(v, path, key);
    if (!text.ok()) return text.status();
    out->push_back({key, *text, LineOf(v)});
  }
  // toml++ keeps a table's keys sorted; options apply in the order they are written.
  std::stable_sort(out->begin(), out->end(),
                   [](const PlanValue& a, const PlanValue& b) { return a.line < b.line; });
  return Status::Ok();
}

Status ReadGroup(const toml::table& t, const std::string& path, int index, PlanGroup* g) {
  g->line = LineOf(t);
  g->name = "g" + std::to_string(index + 1);
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    const int line = LineOf(v);
    if (key == "options") {
      const auto* opts = v.as_table();
      if (opts == nullptr) return Bad(path, line, "[group.options] must be a table");
      SB_RETURN_IF_ERROR(ReadValues(*opts, path, &g->options));
      continue;
    }
    if (key == "count" || key == "spread_threads") {
      const auto* n = v.as_integer();
      const int64_t max = key == "count" ? kMaxPlanInstances : 65536;
      if (n == nullptr || n->get() < 1 || n->get() > max) {
        return Bad(path, line,
                   "key '" + key + "' must be a whole number from 1 to " + std::to_string(max));
      }
      (key == "count" ? g->count : g->spread_threads) = static_cast<int>(n->get());
      continue;
    }
    if (key == "load" || key == "scale") {
      const auto* b = v.as_boolean();
      if (b == nullptr) return Bad(path, line, "key '" + key + "' must be true or false");
      (key == "load" ? g->load : g->scale) = b->get();
      continue;
    }
    if (key == "name" || key == "workload" || key == "db") {
      const auto* s = v.as_string();
      if (s == nullptr || s->get().empty()) {
        return Bad(path, line, "key '" + key + "' must be a non-empty string");
      }
      (key == "name" ? g->name : key == "workload" ? g->workload : g->db) = s->get();
      continue;
    }
    return Bad(
        path, line,
        "unknown key '" + key +
            "' in [[group]] (name, count, workload, db, load, scale, spread_threads, options; the "
            "workload's and driver's options go in [group.options])");
  }
  if (g->db.empty()) {
    return Bad(path, g->line, "[[group]] '" + g->name + "' has no 'db' (a database URL template)");
  }
  for (char c : g->name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
      return Bad(path, g->line,
                 "group name '" + g->name + "' may hold only letters, digits, '_' and '-'");
    }
  }
  return Status::Ok();
}

}  // namespace

int Plan::ScaleGroup() const {
  for (size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].scale) return static_cast<int>(i);
  }
  return 0;
}

int Plan::Instances() const {
  int n = 0;
  for (const auto& g : groups) n += g.count;
  return n;
}

Result<Plan> ParsePlan(std::string_view text, const std::string& path) {
  toml::parse_result parsed = toml::parse(text, path);
  if (!parsed) {
    const toml::parse_error& e = parsed.error();
    return Bad(path, static_cast<int>(e.source().begin.line),
               "not valid TOML: " + std::string(e.description()));
  }
  const toml::table& root = parsed.table();
  Plan plan;
  plan.path = path;
  for (const auto& [k, v] : root) {
    const std::string key(k.str());
    if (key == "run") {
      const auto* t = v.as_table();
      if (t == nullptr) return Bad(path, LineOf(v), "[run] must be a table");
      SB_RETURN_IF_ERROR(ReadValues(*t, path, &plan.run));
    } else if (key == "group") {
      const auto* groups = v.as_array();
      if (groups == nullptr) return Bad(path, LineOf(v), "groups are written [[group]]");
      for (size_t i = 0; i < groups->size(); ++i) {
        const auto* t = (*groups)[i].as_table();
        if (t == nullptr) return Bad(path, LineOf((*groups)[i]), "a [[group]] must be a table");
        PlanGroup g;
        SB_RETURN_IF_ERROR(ReadGroup(*t, path, static_cast<int>(i), &g));
        for (const PlanGroup& other : plan.groups) {
          if (other.name == g.name) {
            return Bad(path, g.line, "group name '" + g.name + "' is used twice");
          }
        }
        plan.groups.push_back(std::move(g));
      }
    } else {
      return Bad(path, LineOf(v), "unknown key '" + key + "' (a plan has [run] and [[group]])");
    }
  }
  if (plan.groups.empty()) return Bad(path, 1, "the plan has no [[group]] of instances");
  int scaled = 0;
  for (const auto& g : plan.groups) scaled += g.scale ? 1 : 0;
  if (scaled > 1) return Bad(path, 1, "only one group may have 'scale = true'");
  if (plan.Instances() > kMaxPlanInstances) {
    return Bad(path, 1,
               "the plan has " + std::to_string(plan.Instances()) + " instances; at most " +
                   std::to_string(kMaxPlanInstances) + " are supported");
  }
  return plan;
}

Result<Plan> ReadPlanFile(const std::string& path) {
  // Non-blocking, and only a regular file: a FIFO or device would hang or never end.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return Status::InvalidArgument("cannot read the plan '" + path + "': " + std::strerror(errno));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Status::InvalidArgument("the plan '" + path + "' is not a regular file");
  }
  if (static_cast<size_t>(st.st_size) > kMaxPlanBytes) {
    close(fd);
    return Status::InvalidArgument("the plan '" + path + "' is larger than 1 MiB");
  }
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = read(fd, text.data() + got, text.size() - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd);
  text.resize(got);
  return ParsePlan(text, path);
}

std::string ExpandInstanceTemplate(const std::string& tmpl, int i) {
  std::string out;
  const std::string n = std::to_string(i);
  for (size_t pos = 0; pos < tmpl.size();) {
    if (tmpl.compare(pos, 3, "{i}") == 0) {
      out += n;
      pos += 3;
    } else {
      out += tmpl[pos++];
    }
  }
  return out;
}

}  // namespace sb::config
