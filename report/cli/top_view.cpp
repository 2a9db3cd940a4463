#include "report/cli/top_view.h"

#include <curses.h>
#include <langinfo.h>

#include <clocale>
#include <cstring>

#include <sstream>
#include <string>

#include "report/cli/live_client.h"
#include "report/render/top_text.h"

namespace cudaleak::cli {

int run_top_view(const std::vector<int>& given, int interval_ms, render::TopTextOptions options) {
  std::setlocale(LC_ALL, "");  // ncursesw draws UTF-8 only in a UTF-8 locale
  options.ascii = std::strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
  initscr();
  cbreak();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  timeout(interval_ms);
  bool running = true;
  while (running) {
    const std::vector<int> pids = given.empty() ? live_pids() : given;
    std::vector<render::LiveProcess> processes;
    for (int pid : pids) processes.push_back(fetch_frame(pid));
    int rows, columns;
    getmaxyx(stdscr, rows, columns);
    options.width = size_t(columns > 40 ? columns : 40);
    erase();
    attron(A_BOLD);
    mvprintw(0, 0, "cudaleak top: %zu process%s  [j/k select, g growth, b bytes, q quit]  sorted by %s", pids.size(),
             pids.size() == 1 ? "" : "es", options.order == render::TopOrder::Growth ? "growth" : "live bytes");
    attroff(A_BOLD);
    std::istringstream text(pids.empty() ? "no process on this host serves a live view (run one under cudaleak run)\n"
                                         : render::render_top(processes, gpu_usage(), options));
    std::string line;
    for (int row = 2; row < rows && std::getline(text, line); ++row) {
      const bool selected = line.rfind("> ", 0) == 0;
      if (selected) attron(A_REVERSE);
      mvaddstr(row, 0, line.c_str());  // ncurses cuts at the edge, by cells (the history is UTF-8)
      if (selected) attroff(A_REVERSE);
    }
    refresh();
    switch (getch()) {
      case 'q': running = false; break;
      case 'j':
      case KEY_DOWN: ++options.selected; break;
      case 'k':
      case KEY_UP:
        if (options.selected > 0) --options.selected;
        break;
      case 'g': options.order = render::TopOrder::Growth; break;
      case 'b': options.order = render::TopOrder::Bytes; break;
      default: break;
    }
  }
  endwin();
  return 0;
}

}  // namespace cudaleak::cli
