# SPDX-License-Identifier: GPL-2.0
"""Symbol specifications: the Python port of tools/inspector/symspec.[ch], the
notations that name one instance of a kernel symbol.  Pure Python, no gdb.

  sym  sym+0xoff  sym+0xoff/0xsize   the one instance, at an offset
  sym [mod] [mod2] {obj.o}           as /proc/kallmodsyms prints it
  mod:sym                            in built-in module mod
  mod:sym{fs/fat/cache.o}           the kernel's probe notation
  path/obj.o:sym                     from an object whose path ends so
  'file.c'::sym  file.c::sym  sym@path/file.c   from that source file
  sym,N                              livepatch's sympos (1-based, all
                                     symbols of the name in kallsyms
                                     order; 0: must be unique)

Paths match by whole trailing components.  {obj.o} is first the name
/proc/kallmodsyms prints, if it prints it for an instance.  Otherwise a
function whose code has a full path in the note's paths images (FORMAT.md
3.9: text's in the paths image, init text's in the init paths image) is
in every object named by a component suffix of it
(fs/fat/cache.o, fat/cache.o, cache.o), and in those its DWARF names (the
sources of an object linked with ld -r); without DWARF in no other.
Where neither names an instance's object (data, code without a path), a
source_of(address) callback (DWARF, through gdb) may tell; else the
instance is "unsure" and the input is reported, not guessed.  The rules
are the inspector's (tools/inspector/symspec.c)."""

import re

TEXT_TYPES = "tTwW"


class SpecError(Exception):
    """The message names the problem; the caller names the input."""


class Spec:
    def __init__(self):
        self.is_address = False
        self.name = None
        self.offset = 0
        self.have_offset = False
        self.size = None
        self.modules = None     # "[a] [b]", normalised
        self.module = None      # mod:sym
        self.object = None      # path/obj.o
        self.object_braced = False
        self.source = None      # path/file.c
        self.sympos = None      # None: not given; 0: must be unique


def _hex(text):
    m = re.match(r"(0[xX])?([0-9a-fA-F]+)", text)
    if not m:
        return None, text
    return int(m.group(2), 16), text[m.end():]


def _set_path(spec, path):
    while path.startswith("./"):
        path = path[2:]
    if not path:
        raise SpecError("empty file name")
    if path.endswith(".o"):
        if spec.object is not None:
            raise SpecError("two object or source files")
        spec.object = path
    else:
        if spec.source is not None:
            raise SpecError("two object or source files")
        spec.source = path


def _parse_word(word, allow_address, spec):
    value, rest = _hex(word)
    if allow_address and value is not None and not rest:
        spec.is_address = True
        spec.offset = value
        return
    if "::" in word:
        path, word = word.split("::", 1)
        _set_path(spec, path)
    if ":" in word:
        prefix, word = word.split(":", 1)
        if not prefix:
            raise SpecError("nothing before ':'")
        if prefix.endswith(".o"):
            _set_path(spec, prefix)
        else:
            spec.module = prefix
        if ":" in word:
            raise SpecError("more than one ':'")
    m = re.match(r"[^\s+,@/]+", word)
    if not m:
        raise SpecError("no symbol name")
    spec.name = m.group(0)
    rest = word[m.end():]
    while rest:
        c = rest[0]
        if c == ",":
            if spec.sympos is not None:
                raise SpecError("two sympos after ','")
            m = re.match(r",(\d+)", rest)
            if not m:
                raise SpecError("no position after ','")
            spec.sympos = int(m.group(1))
            rest = rest[m.end():]
        elif c == "@":
            m = re.match(r"@([^+,]*)", rest)
            _set_path(spec, m.group(1))
            rest = rest[m.end():]
        elif c == "+":
            if spec.have_offset:
                raise SpecError("two offsets")
            value, rest = _hex(rest[1:])
            if value is None:
                raise SpecError("bad offset after +")
            spec.offset = value
            spec.have_offset = True
            if rest.startswith("/"):
                value, rest = _hex(rest[1:])
                if value is None:
                    raise SpecError("bad size after /")
                spec.size = value
        else:
            raise SpecError("unexpected '%s' after the symbol name" % c)


def parse(text, allow_address=True):
    """The Spec of @text; SpecError on a syntax error."""
    spec = Spec()
    p = text.strip()
    if not p:
        raise SpecError("empty")
    if p.startswith("'"):
        close = p.find("'", 1)
        if close < 0:
            raise SpecError("unterminated quote")
        if p[close + 1:close + 3] != "::":
            raise SpecError("no :: after the quoted file name")
        _set_path(spec, p[1:close])
        p = p[close + 3:]
    # The word ends at a space, or at the kernel's SYM{OBJ} brace.
    word = re.match(r"[^ \t\n{]*", p).group(0)
    _parse_word(word, allow_address and spec.source is None
                and spec.object is None, spec)
    p = p[len(word):].lstrip()
    if p.startswith("["):
        brace = p.find("{")
        head = p if brace < 0 else p[:brace]
        last = head.rfind("]")
        if last < 0:
            raise SpecError("unterminated [module]")
        spec.modules = " ".join(re.findall(r"\[[^\]]*\]", p[:last + 1]))
        p = p[last + 1:].lstrip()
    if p.startswith("{"):
        close = p.find("}")
        if close < 0:
            raise SpecError("unterminated {objfile}")
        if spec.object is not None:
            raise SpecError("two object files")
        spec.object = p[1:close]
        spec.object_braced = True
        p = p[close + 1:]
    if p.strip():
        raise SpecError("trailing characters")
    if spec.is_address and (spec.modules or spec.object):
        raise SpecError("[module] {objfile} qualify a symbol name, not an "
                        "address")
    return spec


def is_component_suffix(path, name):
    """Is @name @path itself or what follows one of its '/' (FORMAT.md
    3.9: fs/fat/cache.o, fat/cache.o and cache.o name fs/fat/cache.o)?"""
    return path == name or path.endswith("/" + name)


def path_ends_with(path, suffix):
    if not path.endswith(suffix):
        return False
    return (len(path) == len(suffix) or path[-len(suffix) - 1] == "/"
            or suffix.startswith("/"))


def _object_of(path):
    slash = path.rfind("/")
    dot = path.rfind(".")
    return (path[:dot] if dot > slash else path) + ".o"


NO, UNSURE, YES = 0, 1, 2


class Instance:
    """Symbol @index of its name's @sympos, its attribution @obj, and
    @path: the full path of a function's object in the paths images, or
    None (no paths image, data, code without a path)."""

    def __init__(self, index, obj, sympos, path=None):
        self.index = index
        self.obj = obj
        self.sympos = sympos
        self.path = path
        self.unsure = False


def _match_object(tables, inst, address, path, source_of):
    named = tables.objfile(inst.obj)
    if ((inst.path is not None and is_component_suffix(inst.path, path)) or
            (named is not None and path_ends_with(named, path))):
        return YES
    files = source_of(address) if source_of else None
    if files:
        return YES if any(path_ends_with(_object_of(f), path)
                          for f in files if f) else NO
    if inst.path is not None:
        return NO
    if named is not None and not path_ends_with(path, named):
        return NO
    return UNSURE


def _match_source(tables, inst, address, path, source_of):
    files = source_of(address) if source_of else None
    if files:
        return YES if any(path_ends_with(f, path) for f in files if f) else NO
    return _match_object(tables, inst, address, _object_of(path), None)


def _same_module(a, b):
    return a.replace("-", "_") == b.replace("-", "_")


def match(spec, symbols, tables, text, source_of=None):
    """(instances passing @spec's qualifiers, how many symbols have the
    name).  @text: the address of _text in @symbols' addresses."""
    indexes = symbols.named(spec.name)
    percpu = symbols.named("__per_cpu_start")
    percpu = symbols.addresses[percpu[0]] if percpu else None

    def obj_of(i):
        return tables.symbol_object(symbols.addresses[i], symbols.types[i],
                                    text, percpu)

    def instance(pos, i):
        address = symbols.addresses[i]
        if address < text or symbols.types[i] not in TEXT_TYPES:
            return Instance(i, obj_of(i), pos)
        return Instance(i, obj_of(i), pos, tables.path_at(address - text))

    printed = spec.object_braced and any(
        tables.objfile(obj_of(i)) == spec.object for i in indexes)
    found = []
    for pos, i in enumerate(indexes, 1):
        inst = instance(pos, i)
        verdict = YES
        if spec.sympos and pos != spec.sympos:
            continue
        if spec.modules is not None and \
                " ".join("[%s]" % m for m in tables.modules(inst.obj)) \
                != spec.modules:
            continue
        if spec.module is not None and not any(
                _same_module(m, spec.module)
                for m in tables.modules(inst.obj)):
            continue
        address = symbols.addresses[i]
        if printed:
            if tables.objfile(inst.obj) != spec.object:
                continue
        elif spec.object is not None:
            v = _match_object(tables, inst, address, spec.object, source_of)
            if v == NO:
                continue
            verdict = min(verdict, v)
        if spec.source is not None:
            v = _match_source(tables, inst, address, spec.source, source_of)
            if v == NO:
                continue
            verdict = min(verdict, v)
        inst.unsure = verdict == UNSURE
        found.append(inst)
    return found, len(indexes)


def candidate_line(symbols, tables, inst):
    i = inst.index
    line = "\t%016x %s %s" % (symbols.addresses[i], symbols.types[i],
                              symbols.names[i])
    annotation = tables.annotation(inst.obj)
    if annotation:
        line += "\t" + annotation
    line += "\tsympos=%d" % inst.sympos
    if inst.unsure:
        line += " (object unknown)"
    return line


def resolve(spec, symbols, tables, text, source_of=None, image="vmlinux"):
    """The one Instance @spec names; SpecError with the message the
    inspector's lookup gives (candidates on the following lines)."""
    found, count = match(spec, symbols, tables, text, source_of)
    unsure = sum(1 for f in found if f.unsure)
    if len(found) == 1 and not unsure:
        return found[0]
    if not count:
        raise SpecError("no such symbol")
    if spec.sympos and spec.sympos > count:
        raise SpecError("sympos %d, but there %s %d symbol%s called %s"
                        % (spec.sympos, "is" if count == 1 else "are",
                           count, "" if count == 1 else "s", spec.name))
    if not found:
        raise SpecError("no instance of the symbol has these qualifiers")
    if unsure:
        head = ("%d instance%s of %s may match: the tables do not say which "
                "object %d of them come%s from, and %s has no DWARF to tell"
                % (len(found), "" if len(found) == 1 else "s", spec.name,
                   unsure, "s" if unsure == 1 else "", image))
    else:
        qualified = (spec.modules or spec.module or spec.object
                     or spec.source or spec.sympos)
        head = ("%d instances of %s%s; pick one by sympos (%s,N), [module] "
                "{objfile}, mod:, obj.o: or file.c::"
                % (len(found), spec.name, " match" if qualified else "",
                   spec.name))
    raise SpecError("\n".join([head] + [candidate_line(symbols, tables, f)
                                        for f in found]))
