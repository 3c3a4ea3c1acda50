# SPDX-License-Identifier: GPL-2.0
"""lx-kallmodsyms, lx-kallmodsyms-lookup, $lx_modsym() and the frame
filter that adds [module] {objfile} to backtraces."""

import gdb
from gdb.FrameDecorator import FrameDecorator

from kallmodsyms import image, symspec
from kallmodsyms.blob import KmsError

from .target import Kernel


def _fail(command, err):
    raise gdb.GdbError("%s: %s" % (command, err))


def _notice(command, text):
    if text:
        gdb.write("%s: %s\n" % (command, text), gdb.STDERR)


def _address(expr):
    value = gdb.parse_and_eval(expr)
    if value.type.strip_typedefs().code == gdb.TYPE_CODE_FUNC:
        value = value.address
    return int(value.cast(gdb.lookup_type("unsigned long"))) & \
        ((1 << (8 * gdb.lookup_type("unsigned long").sizeof)) - 1)


class LxKallmodsyms(gdb.Command):
    """List the kernel's symbols as /proc/kallmodsyms shows them.

lx-kallmodsyms [-m MODULE] [-o OBJFILE] [-c] [--file] [PATTERN]

Each line is the /proc/kallsyms line of a core-kernel symbol, with the
built-in modules ([mod]) and object file ({obj.o}) that tell apart symbols
of one name.  PATTERN is a symbol name or a glob (fnmatch).
  -m, --module MODULE    only symbols of this built-in module
  -o, --objfile OBJFILE  only symbols printed with this {objfile}
  -c, --count            print how many lines match instead of the lines
  --file                 the symbols of the vmlinux file, not the
                         kernel's; without a target, list the file alone
The tables are the note's in the vmlinux file (a running kernel frees its
own copy after boot); symbols and addresses are the running kernel's,
KASLR included.  Loadable modules' symbols are not listed."""

    def __init__(self):
        super().__init__("lx-kallmodsyms", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        module = objfile = pattern = None
        count = use_file = False
        i = 0
        while i < len(argv):
            a = argv[i]
            if a in ("-m", "--module", "-o", "--objfile"):
                if i + 1 == len(argv):
                    _fail(self._name(), "%s needs an argument" % a)
                if a in ("-m", "--module"):
                    module = argv[i + 1]
                else:
                    objfile = argv[i + 1]
                i += 2
                continue
            if a in ("-c", "--count"):
                count = True
            elif a == "--file":
                use_file = True
            elif a.startswith("-") and a != "-":
                _fail(self._name(), "unknown option %s" % a)
            elif pattern is not None:
                _fail(self._name(), "one PATTERN only")
            else:
                pattern = a
            i += 1
        try:
            kernel = Kernel(use_file)
            tables, notice = kernel.tables()
            symbols = kernel.symbols()
            text = kernel.text()
        except KmsError as e:
            _fail(self._name(), e)
        _notice(self._name(), notice)
        try:
            if kernel.modules_loaded():
                _notice(self._name(), "loadable modules' symbols are not "
                        "listed (lx-symbols loads them into gdb)")
        except KmsError:
            pass

        out, matched = [], 0
        for line in image.listing(tables, symbols, text,
                                  2 * kernel.pointer_size, pattern, module,
                                  objfile):
            matched += 1
            if count:
                continue
            out.append(line + "\n")
            if len(out) >= 4096:
                gdb.write("".join(out))
                out = []
        if count:
            out.append("%u\n" % matched)
        gdb.write("".join(out))

    def _name(self):
        return "lx-kallmodsyms"


def _source_of(kernel):
    """source_of(address) for symspec: the files gdb's symtabs give."""
    def source_of(addr):
        pc = addr - kernel.offset
        files = []
        try:
            sal = gdb.find_pc_line(pc)
            if sal.symtab is not None:
                files.append(sal.symtab.filename)
            block = gdb.block_for_pc(pc)
            while block is not None and block.function is None:
                block = block.superblock
            if block is not None and block.function.symtab is not None:
                files.append(block.function.symtab.filename)
        except RuntimeError:
            return None
        return files or None
    return source_of


def _lookup_spec(kernel, tables, symbols, expr):
    """ "ADDR sym+0xoff/0xsize [mod] {obj}" of a symbol specification, None
    when @expr is not one (a gdb expression), or SpecError."""
    try:
        spec = symspec.parse(expr, allow_address=False)
    except symspec.SpecError:
        return None
    if not symbols.named(spec.name):
        bare = (spec.name == expr.strip())
        if bare or expr.strip().startswith("'"):
            return None
        raise symspec.SpecError("no such symbol")
    inst = symspec.resolve(spec, symbols, tables, kernel.text(),
                           _source_of(kernel), kernel.elf.path)
    size = symbols.size(inst.index)
    if size and spec.offset >= size:
        raise symspec.SpecError("offset past the end of the symbol")
    if spec.size is not None and spec.size != size:
        raise symspec.SpecError("this kernel's %s is %#x bytes"
                                % (spec.name, size))
    text = "%016x %s+%#x/%#x" % (symbols.addresses[inst.index] + spec.offset,
                                 spec.name, spec.offset, size)
    annotation = tables.annotation(inst.obj)
    return text + " " + annotation if annotation else text


class LxKallmodsymsLookup(gdb.Command):
    """Name addresses as symbol+off/size [module] {objfile}, or find the
one instance a symbol specification names.

lx-kallmodsyms-lookup [--file] ADDR|EXPR|SPEC...

Each argument is an address, any gdb expression ($pc, a function pointer
field), or a symbol specification as the inspector takes it: sym,
sym+0xoff[/0xsize], 'sym [mod] {obj.o}', mod:sym, path/obj.o:sym,
'file.c'::sym, sym@path/file.c, sym,N (livepatch sympos); see
kallmodsyms(1).  {obj.o} is the name the listing prints if it prints it
for an instance; otherwise, as obj.o: is, any component suffix of a
function's object's full path in the note (fs/fat/cache.o, fat/cache.o,
cache.o) or of the sources DWARF names for it.  A specification that
fits several instances is an error that lists them.  Quote arguments that hold
spaces.  One line per argument, as the inspector's "kallmodsyms lookup"
prints it."""

    def __init__(self):
        super().__init__("lx-kallmodsyms-lookup", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        name = "lx-kallmodsyms-lookup"
        argv = gdb.string_to_argv(arg)
        use_file = "--file" in argv
        exprs = [a for a in argv if a != "--file"]
        if not exprs:
            _fail(name, "give an address or an expression")
        try:
            kernel = Kernel(use_file)
            tables, notice = kernel.tables()
            symbols = kernel.symbols()
        except KmsError as e:
            _fail(name, e)
        _notice(name, notice)
        problems = []
        for expr in exprs:
            try:
                text = _lookup_spec(kernel, tables, symbols, expr)
            except symspec.SpecError as e:
                problems.append("\"%s\": %s" % (expr, e))
                continue
            if text is not None:
                gdb.write(text + "\n")
                continue
            try:
                addr = _address(expr)
                text = image.describe(tables, symbols, kernel.text(), addr,
                                      image.percpu_start(symbols))
                if text is None:
                    problems.append("%#x: not in a symbol of the kernel's "
                                    "image" % addr)
                    continue
            except gdb.error as e:
                problems.append("\"%s\": %s" % (expr, e))
                continue
            gdb.write(text + "\n")
        # One problem is the command's error; several are listed first.
        if len(problems) > 1:
            for problem in problems:
                gdb.write("%s: %s\n" % (name, problem), gdb.STDERR)
            _fail(name, "%u of %u not found" % (len(problems), len(exprs)))
        if problems:
            _fail(name, problems[0])


class LxModsym(gdb.Function):
    """$lx_modsym(ADDR): "symbol+off/size [module] {objfile}" of ADDR."""

    def __init__(self):
        super().__init__("lx_modsym")

    def invoke(self, addr):
        try:
            kernel = Kernel()
            tables, _notice_text = kernel.tables()
            symbols = kernel.symbols()
            text = image.describe(
                tables, symbols, kernel.text(),
                int(addr.cast(gdb.lookup_type("unsigned long"))),
                image.percpu_start(symbols))
        except KmsError as e:
            raise gdb.GdbError("$lx_modsym: %s" % e)
        if text is None:
            raise gdb.GdbError("$lx_modsym: %#x is not in a symbol of the "
                               "kernel's image" % int(addr))
        return text


def _address_in_function(frame):
    """An address inside the frame's function: a caller's pc is a return
    address (for a tail call, the address after the jump), which may be
    the first byte of the next function."""
    called = (gdb.NORMAL_FRAME, gdb.TAILCALL_FRAME)
    pc = frame.pc()
    newer = frame.newer()
    if newer is not None and newer.type() in called and \
            frame.type() in called:
        return pc - 1
    return pc


class _Annotated(FrameDecorator):
    def __init__(self, frame, name, annotation):
        super().__init__(frame)
        self._name = name
        self._annotation = annotation

    def function(self):
        name = self._name
        if name is None:
            name = super().function()
            if not isinstance(name, str):
                return name
        return "%s %s" % (name, self._annotation)


class KallmodsymsFrameFilter:
    """Adds [module] {objfile} to the frames of built-in modules' code.

    The function name comes from the kernel's kallsyms as well, so that it
    is right under KASLR even when gdb's symbols were not relocated;
    inlined frames keep gdb's name."""

    def __init__(self):
        self.name = "kallmodsyms"
        self.priority = 100
        self.enabled = True
        gdb.frame_filters[self.name] = self

    def filter(self, frame_iter):
        try:
            if not gdb.current_progspace().filename:
                return frame_iter
            kernel = Kernel()
            tables, _notice_text = kernel.tables()
            symbols = kernel.symbols()
            text = kernel.text()
        except (KmsError, gdb.error, OSError):
            return frame_iter
        return self._decorate(frame_iter, tables, symbols, text)

    @staticmethod
    def _decorate(frame_iter, tables, symbols, text):
        for decorator in frame_iter:
            frame = decorator.inferior_frame()
            pc = _address_in_function(frame)
            annotation = tables.annotation(tables.object_at(pc - text))
            if not annotation:
                yield decorator
                continue
            name = None
            if frame.type() != gdb.INLINE_FRAME:
                found = symbols.at(pc)
                if found is not None:
                    name = symbols.names[found[0]]
            yield _Annotated(decorator, name, annotation)


def register():
    LxKallmodsyms()
    LxKallmodsymsLookup()
    LxModsym()
    KallmodsymsFrameFilter()
