#!/usr/bin/env python3
"""Generate a small glad-v1-compatible OpenGL loader from the Khronos gl.xml.

Emits OpenGL 3.3 core + GL_KHR_debug into <out>/include/glad/glad.h,
<out>/src/glad.c and <out>/CMakeLists.txt.  Standard library only.

    python3 tools/gen_glad.py [--xml /usr/share/khronos-api/gl.xml] [--out third_party/glad]

Output depends only on the gl.xml contents (no dates, no paths), so re-running on
the same input gives byte-identical files.  Names keep gl.xml registry order.
"""
import argparse
import hashlib
import os
import xml.etree.ElementTree as ET

API, PROFILE = "gl", "core"
VERSIONS = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "3.0", "3.1", "3.2", "3.3"]
EXTENSIONS = ["GL_KHR_debug"]
MIN_MAJOR, MIN_MINOR = 3, 3

# Guards of the system/SDL GL headers: defining them makes later includes no-ops,
# and finding one already defined means a GL header came first (which would clash).
GL_HEADER_GUARDS = ["__gl_h_", "__GL_H__", "__glext_h_", "__gl_glext_h_",
                    "__glcorearb_h_", "__gl_glcorearb_h_", "__gl3_h_"]

# The khronos_* types gl.xml's typedefs use, from the C headers, so that the
# loader needs no KHR/khrplatform.h from the system; its guard is defined so a
# later include of that header (same types on LP64 and LLP64) is a no-op.
KHRONOS_TYPES = [
    "#ifndef __khrplatform_h_",
    "#define __khrplatform_h_",
    "#include <stddef.h>",
    "#include <stdint.h>",
    "typedef int8_t khronos_int8_t;",
    "typedef uint8_t khronos_uint8_t;",
    "typedef int16_t khronos_int16_t;",
    "typedef uint16_t khronos_uint16_t;",
    "typedef int32_t khronos_int32_t;",
    "typedef uint32_t khronos_uint32_t;",
    "typedef int64_t khronos_int64_t;",
    "typedef uint64_t khronos_uint64_t;",
    "typedef float khronos_float_t;",
    "#ifdef _WIN64",
    "typedef signed long long int khronos_intptr_t;",
    "typedef signed long long int khronos_ssize_t;",
    "#else",
    "typedef signed long int khronos_intptr_t;",
    "typedef signed long int khronos_ssize_t;",
    "#endif",
    "#endif",
]


def wanted(elem):
    """A <require>/<remove>/<enum> applies if it names no api/profile or ours."""
    return elem.get("api", API) == API and elem.get("profile", PROFILE) == PROFILE


def text_of(elem):
    """Element text with <apientry/> spelled out (itertext() would drop it)."""
    out = [elem.text or ""]
    for child in elem:
        out.append("APIENTRY" if child.tag == "apientry" else text_of(child))
        out.append(child.tail or "")
    return "".join(out)


def squash(s):
    return " ".join(s.split())


class Registry:
    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        self.sha256 = hashlib.sha256(data).hexdigest()
        self.root = ET.fromstring(data)
        self.types = [t for t in self.root.find("types").findall("type")
                      if t.get("api", API) == API]
        self.enums = {}  # name -> C literal; the api-specific value wins for GL
        for e in self.root.iter("enum"):
            if e.get("value") is not None and wanted(e):
                self.enums[e.get("name")] = e.get("value") + e.get("type", "")
        self.commands = {}  # name -> (return type, parameter list)
        for c in self.root.find("commands"):
            proto = c.find("proto")
            name = proto.find("name").text
            full = squash(text_of(proto))
            ret = full[: full.rfind(name)].strip()
            params = ", ".join(squash(text_of(p)) for p in c.findall("param")) or "void"
            self.commands[name] = (ret, params)

    def revision(self):
        """gl.xml files from ~2020 on carry no revision; look anyway."""
        for c in self.root.findall("comment"):
            for word in ("$Revision", "$Date", "Revision"):
                if word in (c.text or ""):
                    return squash(c.text[c.text.index(word):].splitlines()[0])
        return None

    def select(self):
        """Walk features in order, applying core <remove>s, then the extensions.

        Returns [(block_name, own_commands, own_enums, load_commands)], where own_*
        are names first declared by that block and load_commands is what its
        load function fetches (for an extension: all its commands, as glad does).
        """
        owner_cmd, owner_enum, blocks = {}, {}, []
        features = {f.get("number"): f for f in self.root.findall("feature")
                    if f.get("api") == API}
        for number in VERSIONS:
            feat = features[number]
            blocks.append(feat.get("name"))
            for req in feat.findall("require"):
                if wanted(req):
                    for e in req.findall("command"):
                        owner_cmd.setdefault(e.get("name"), feat.get("name"))
                    for e in req.findall("enum"):
                        owner_enum.setdefault(e.get("name"), feat.get("name"))
            for rem in feat.findall("remove"):  # e.g. GL 3.2 drops compatibility names
                if wanted(rem):
                    for e in rem.findall("command"):
                        owner_cmd.pop(e.get("name"), None)
                    for e in rem.findall("enum"):
                        owner_enum.pop(e.get("name"), None)
        ext_loads = {}
        exts = {x.get("name"): x for x in self.root.find("extensions")}
        for name in EXTENSIONS:
            ext = exts[name]
            assert API in ext.get("supported").split("|"), name
            blocks.append(name)
            ext_loads[name] = []
            for req in ext.findall("require"):
                if wanted(req):  # skips the gles2 block with the _KHR-suffixed names
                    for e in req.findall("command"):
                        owner_cmd.setdefault(e.get("name"), name)
                        ext_loads[name].append(e.get("name"))
                    for e in req.findall("enum"):
                        owner_enum.setdefault(e.get("name"), name)
        # dicts keep insertion order, i.e. registry order of first requirement
        result = []
        for b in blocks:
            cmds = [c for c, o in owner_cmd.items() if o == b]
            enums = [e for e, o in owner_enum.items() if o == b]
            result.append((b, cmds, enums, ext_loads.get(b, cmds)))
        return result


def banner(reg, comment_open, comment_close, line):
    rev = reg.revision() or "no revision/date recorded in the file"
    return "\n".join([
        comment_open,
        f"{line} Generated by tools/gen_glad.py from the Khronos OpenGL registry gl.xml",
        f"{line} ({rev}; sha256 {reg.sha256[:16]}).",
        f"{line} OpenGL {VERSIONS[-1]} {PROFILE} profile + {', '.join(EXTENSIONS)}; glad v1 compatible API.",
        f"{line} DO NOT EDIT BY HAND: change the generator and re-run `python3 tools/gen_glad.py`.",
        comment_close, ""])


def gen_header(reg, blocks):
    o = [banner(reg, "/*", " */", " *"), "#ifndef __glad_h_", "#define __glad_h_", ""]
    cond = " || ".join(f"defined({g})" for g in GL_HEADER_GUARDS)
    o += [f"#if {cond}",
          "#error An OpenGL header was included before glad.h; include <glad/glad.h> first",
          "#endif"]
    o += [f"#define {g} 1" for g in GL_HEADER_GUARDS]
    o += ["", "#if defined(_WIN32) && !defined(APIENTRY) && !defined(__CYGWIN__) && !defined(__SCITECH_SNAP__)",
          "#define APIENTRY __stdcall", "#endif",
          "#ifndef APIENTRY", "#define APIENTRY", "#endif",
          "#ifndef APIENTRYP", "#define APIENTRYP APIENTRY *", "#endif",
          "#ifndef GLAPIENTRY", "#define GLAPIENTRY APIENTRY", "#endif",
          "#ifndef GLAPI", "#define GLAPI extern", "#endif", "",
          "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
          "struct gladGLversionStruct {", "    int major;", "    int minor;", "};",
          "typedef void* (*GLADloadproc)(const char *name);",
          "GLAPI struct gladGLversionStruct GLVersion;",
          "/* Returns 1 on success, 0 if glGetString is missing or the context is older than "
          f"{MIN_MAJOR}.{MIN_MINOR}. */",
          "GLAPI int gladLoadGLLoader(GLADloadproc load);", ""]
    for t in reg.types:
        o += KHRONOS_TYPES if t.get("name") == "khrplatform" else [text_of(t)]
    o.append("")
    for _, _, enums, _ in blocks:
        o += [f"#define {e} {reg.enums[e]}" for e in enums]
    for block, cmds, _, _ in blocks:
        o += ["", f"#ifndef {block}", f"#define {block} 1", f"GLAPI int GLAD_{block};"]
        for c in cmds:
            ret, params = reg.commands[c]
            pfn = f"PFN{c.upper()}PROC"
            o += [f"typedef {ret} (APIENTRYP {pfn})({params});",
                  f"GLAPI {pfn} glad_{c};",
                  f"#define {c} glad_{c}"]
        o.append("#endif")
    o += ["", "#ifdef __cplusplus", "}", "#endif", "", "#endif /* __glad_h_ */", ""]
    return "\n".join(o)


def gen_source(reg, blocks):
    features = [b for b in blocks if b[0].startswith("GL_VERSION_")]
    exts = [b for b in blocks if not b[0].startswith("GL_VERSION_")]
    o = [banner(reg, "/*", " */", " *"),
         "#include <stdio.h>", "#include <string.h>", "#include <glad/glad.h>", "",
         "struct gladGLversionStruct GLVersion = { 0, 0 };", ""]
    o += [f"int GLAD_{b} = 0;" for b, _, _, _ in blocks]
    o.append("")
    for _, cmds, _, _ in blocks:
        o += [f"PFN{c.upper()}PROC glad_{c} = NULL;" for c in cmds]
    for block, _, _, loads in blocks:
        o += ["", f"static void load_{block}(GLADloadproc load) {{", f"    if (!GLAD_{block}) return;"]
        o += [f'    glad_{c} = (PFN{c.upper()}PROC)load("{c}");' for c in loads]
        o.append("}")
    # Version parsing: skip "OpenGL ES" style prefixes (glad v1 does the same).
    o += ["", "static void find_coreGL(void) {",
          '    static const char *prefixes[] = { "OpenGL ES-CM ", "OpenGL ES-CL ", "OpenGL ES ", NULL };',
          "    const char *version = (const char *)glad_glGetString(GL_VERSION);",
          "    int i, major = 0, minor = 0;",
          '    if (version == NULL) version = "";  /* unparsable: every flag below ends up 0 */',
          "    for (i = 0; prefixes[i] != NULL; i++) {",
          "        size_t n = strlen(prefixes[i]);",
          "        if (strncmp(version, prefixes[i], n) == 0) { version += n; break; }",
          "    }",
          '    if (sscanf(version, "%d.%d", &major, &minor) != 2) major = minor = 0;',
          "    GLVersion.major = major;",
          "    GLVersion.minor = minor;"]
    for b, _, _, _ in features:
        ma, mi = b[len("GL_VERSION_"):].split("_")
        o.append(f"    GLAD_{b} = (major == {ma} && minor >= {mi}) || major > {ma};")
    # GL 3.x core contexts reject glGetString(GL_EXTENSIONS): enumerate with glGetStringi.
    o += ["}", "", "static int has_ext(const char *name) {",
          "    GLint i, count = 0;",
          "    if (glad_glGetStringi == NULL || glad_glGetIntegerv == NULL) return 0;",
          "    glad_glGetIntegerv(GL_NUM_EXTENSIONS, &count);",
          "    for (i = 0; i < count; i++) {",
          "        const char *e = (const char *)glad_glGetStringi(GL_EXTENSIONS, (GLuint)i);",
          "        if (e != NULL && strcmp(e, name) == 0) return 1;",
          "    }", "    return 0;", "}", "",
          "int gladLoadGLLoader(GLADloadproc load) {",
          "    GLVersion.major = 0;", "    GLVersion.minor = 0;",
          '    glad_glGetString = (PFNGLGETSTRINGPROC)load("glGetString");',
          "    if (glad_glGetString == NULL) return 0;",
          "    find_coreGL();",
          f"    if (GLVersion.major < {MIN_MAJOR} || (GLVersion.major == {MIN_MAJOR} && GLVersion.minor < {MIN_MINOR})) return 0;"]
    o += [f"    load_{b}(load);" for b, _, _, _ in features]
    for b, _, _, _ in exts:
        o += [f'    GLAD_{b} = has_ext("{b}");', f"    load_{b}(load);"]
    o += ["    return 1;", "}", ""]
    return "\n".join(o)


def gen_cmake(reg):
    return banner(reg, "#", "#", "#") + "\n".join([
        "add_library(glad STATIC src/glad.c)",
        "target_include_directories(glad PUBLIC include)",
        "set_target_properties(glad PROPERTIES POSITION_INDEPENDENT_CODE ON C_STANDARD 99)",
        "# Generated code: keep the project's warning flags from applying to it.",
        "if(MSVC)", "  target_compile_options(glad PRIVATE /w)",
        "else()", "  target_compile_options(glad PRIVATE -w)", "endif()", ""])


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xml", default="/usr/share/khronos-api/gl.xml")
    ap.add_argument("--out", default="third_party/glad")
    args = ap.parse_args()
    reg = Registry(args.xml)
    blocks = reg.select()
    write(os.path.join(args.out, "include", "glad", "glad.h"), gen_header(reg, blocks))
    write(os.path.join(args.out, "src", "glad.c"), gen_source(reg, blocks))
    write(os.path.join(args.out, "CMakeLists.txt"), gen_cmake(reg))
    n_cmd = len({c for b in blocks for c in b[1]})
    n_enum = len({e for b in blocks for e in b[2]})
    print(f"{n_cmd} functions, {n_enum} enums ({', '.join(b[0] for b in blocks)})")


if __name__ == "__main__":
    main()
