#include "report/cli/format_choices.h"

#include "common/terminal_text.h"

namespace cudaleak::cli {

namespace {

constexpr Command kCommands[] = {Command::Report, Command::Diff, Command::Run};

std::string command_name(Command command) {
  switch (command) {
    case Command::Report: return "report";
    case Command::Diff: return "diff";
    case Command::Run: return "run";
  }
  return "";
}

std::string option_name(ChosenBy option) { return option == ChosenBy::Format ? "--format" : "--annotations"; }

// How `command` asks for `format`: `run` writes each file format to a file of its own.
std::string spelling(Command command, const OutputFormat& format) {
  if (command == Command::Run && format.chosen_by == ChosenBy::Format) return "--" + std::string(format.name) + " FILE";
  return option_name(format.chosen_by) + " " + std::string(format.name);
}

// "a", "a or b", "a, b or c" (or with "and").
std::string joined(const std::vector<std::string>& words, const std::string& last = " or ") {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? last : ", ") + words[i];
  return out;
}

std::vector<std::string> names(const std::vector<const OutputFormat*>& formats) {
  std::vector<std::string> out;
  for (const OutputFormat* f : formats) out.emplace_back(f->name);
  return out;
}

// Where a format `command` refuses is written: by this command through its
// other option first, else by the first command that takes it.
std::string written_by(const OutputFormat& format, Command command) {
  if (takes(command, format)) return "cudaleak " + command_name(command) + " " + spelling(command, format);
  for (Command other : kCommands)
    if (takes(other, format)) return "cudaleak " + command_name(other) + " " + spelling(other, format);
  return "no command";
}

std::string format_help(Command command, ChosenBy option, const std::string& lead) {
  std::vector<std::string> items, per_process;
  for (const OutputFormat* f : formats_of(command, option)) {
    if (option == ChosenBy::Format) {
      items.push_back(std::string(f->name) + " (" + std::string(f->title) + ")");
      if (f->render_processes) per_process.emplace_back(f->name);
      continue;
    }
    std::string where;
    if (command == Command::Run) where = ", to " + (f->run_output.empty() ? "stdout" : std::string(f->run_output));
    items.push_back(std::string(f->title) + " (" + std::string(f->name) + where + ")");
  }
  std::string help = lead + joined(items);
  if (!per_process.empty()) help += "; " + joined(per_process, " and ") + " per process, as cudaleak run writes them";
  return help;
}

}  // namespace

std::string format_refusal(Command command, ChosenBy option, const std::string& name) {
  const std::vector<const OutputFormat*> accepted = formats_of(command, option);
  for (const OutputFormat* f : accepted)
    if (f->name == name) return "";
  const std::string choices = "cudaleak " + command_name(command) + " " + option_name(option) + " takes " +
                              joined(names(accepted));
  const OutputFormat* known = find_output_format(name);
  if (!known) return "'" + printable_name(name) + "' is not a format; " + choices;
  return name + " (" + std::string(known->title) + ") is for " + written_by(*known, command) + "; " + choices;
}

CLI::Option* add_format_option(CLI::App& app, Command command, ChosenBy option, std::string& into,
                               const std::string& lead) {
  std::string set;  // shown after the value's type in --help, as CLI::IsMember shows its set
  for (const std::string& name : names(formats_of(command, option))) set += (set.empty() ? "" : ",") + name;
  return app.add_option(option_name(option), into, format_help(command, option, lead))
      ->check(CLI::Validator([command, option](std::string& name) { return format_refusal(command, option, name); },
                             "{" + set + "}", "FORMAT"));
}

void add_run_file_options(CLI::App& run, std::map<std::string, std::string, std::less<>>& paths) {
  for (const OutputFormat* f : formats_of(Command::Run, ChosenBy::Format))
    run.add_option("--" + std::string(f->name), paths[std::string(f->name)],
                   "Write " + std::string(f->title) + " of the run's leaks (every process) to FILE");
}

std::string formats_markdown() {
  std::string out =
      "| format | what it is | `cudaleak report` | `cudaleak diff` | `cudaleak run` | names from the program | file |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const OutputFormat& f : output_formats()) {
    out += "| `" + std::string(f.name) + "` | " + std::string(f.title) + " |";
    for (Command command : kCommands) {
      std::string cell;
      if (takes(command, f)) {
        cell = "`" + spelling(command, f) + "`";
        if (f.name == kDefaultFormat && command != Command::Run) cell += " (default)";
        if (command == Command::Report && f.chosen_by == ChosenBy::Format && f.render_processes)
          cell += " (per process)";
        if (command == Command::Run && f.chosen_by == ChosenBy::Annotations)
          cell += " (to " + (f.run_output.empty() ? std::string("stdout") : "`" + std::string(f.run_output) + "`") +
                  ")";
      }
      out += cell.empty() ? " |" : " " + cell + " |";
    }
    out += f.terminal_text ? " terminal text: control characters as `\\xNN` |" : " quoted as the format requires |";
    out += " `" + std::string(f.extension) + "` |\n";
  }
  return out;
}

}  // namespace cudaleak::cli
