// chapter_tiny/tiny_pictures.hpp: what every "Paying attention" demo that draws
// shares, without the model: the --svg and --html options, writing the pictures,
// a group of an SVG that a page's script shows or hides, and the HTML page.
#pragma once

#include <cstdio>
#include <string>

#include "cli.hpp"   // Options, formatted, require_folder_of, write_file_atomic
#include "plot.hpp"  // svg_escape

// --svg FILE and --html FILE: "" when not given. Their folders must exist.
struct PictureFiles {
    std::string svg, html;
};
inline PictureFiles picture_options(Options& options) {
    PictureFiles files{options.text("svg", ""), options.text("html", "")};
    if (options.given("svg")) require_folder_of("--svg", files.svg);
    if (options.given("html")) require_folder_of("--html", files.html);
    return files;
}

// Writes the pictures asked for; svg() and page() make each only when it is.
template <typename Svg, typename Page>
inline void write_pictures(const PictureFiles& files, Svg svg, Page page) {
    if (!files.svg.empty()) write_file_atomic(files.svg, svg());
    if (!files.html.empty()) write_file_atomic(files.html, page());
    if (!files.svg.empty()) std::printf("\nwrote %s\n", files.svg.c_str());
    if (!files.html.empty()) std::printf("%swrote %s\n", files.svg.empty() ? "\n" : "", files.html.c_str());
}

// An SVG group with an id, shown or hidden until a page's script shows it.
inline std::string group(const std::string& id, bool visible, const std::string& inside) {
    return formatted("<g id=\"%s\"%s>\n%s</g>\n", id.c_str(), visible ? "" : " display=\"none\"", inside.c_str());
}

// One page: a title, a paragraph, the body (a picture), and its script. One
// file, the SVG inline, plain JavaScript, no network. On a narrow screen (a
// phone) a body of class "charts" (several SVGs) stacks them at the screen's
// width; one of class "scrolls" is drawn at its --phone-width and scrolls
// sideways inside itself, so its letters stay big enough to read and tap (a
// drag sideways past its end is kept there, not taken as the browser's "back");
// its read-out is repeated in #reading, kept at the foot of the screen.
inline std::string html_document(const std::string& title, const std::string& intro, const std::string& body,
                                 const std::string& script) {
    const std::string heading = svg_escape(title);
    return formatted(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>%s</title>\n<style>\n"
        "body { font-family: sans-serif; margin: 2em; }\n"
        "#demo:focus { outline: 2px solid #92c5de; }\n"
        "#demo svg { display: block; max-width: 100%%; height: auto; }\n"
        "#demo.charts { display: flex; flex-wrap: wrap; gap: 0 1em; }\n"
        "#demo.scrolls { overflow-x: auto; overscroll-behavior-x: contain; }\n"
        "#reading { display: none; }\n"
        "@media (max-width: 40em) {\n"
        "  body { margin: 0.75em; }\n"
        "  #demo.charts svg { width: 100%%; }\n"
        "  #demo.scrolls svg { width: var(--phone-width); max-width: none; }\n"
        "  #reading { display: block; position: sticky; bottom: 0; margin: 0; padding: 0.4em 0; "
        "background: white; border-top: 1px solid #ccc; font-size: 0.8em; white-space: pre-line; }\n"
        "}\n</style>\n</head>\n<body>\n<h1>%s</h1>\n<p>%s</p>\n%s%s</body>\n</html>\n",
        heading.c_str(), heading.c_str(), svg_escape(intro).c_str(), body.c_str(), script.c_str());
}
