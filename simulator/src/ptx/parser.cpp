// Recursive-descent parser for the subset of PTX that nvcc emits.
//
// Module-level declarations are parsed eagerly. Each kernel body is decoded
// into Instr records; an error inside a body is stored in Kernel::error so
// that the other kernels of the module stay usable.
#include "ptx/parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ptx/cfg.hpp"
#include "ptx/lexer.hpp"
#include "ptx/shared_provenance.hpp"
#include "ptx/syntax.hpp"
#include "support/demangle.hpp"

namespace cudasim::ptx {
namespace {

using Kind = Token::Kind;

struct KernelError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string lineText(int line)
{
    return "PTX line " + std::to_string(line);
}

uint64_t alignUp(uint64_t v, uint64_t a)
{
    return a <= 1 ? v : (v + a - 1) / a * a;
}

struct ModuleShared {
    uint64_t size = 0;
    uint32_t align = 1;
    bool isExtern = false;
};

class Parser {
public:
    Parser(std::string_view text, const VariableAllocator& allocate) : tokens_(tokenize(text)), allocate_(allocate) {}

    Module run()
    {
        prescanFunctions();
        pos_ = 0;
        prescanSourceFiles();
        pos_ = 0;
        while (!at(Kind::End))
            parseTopLevel();
        return std::move(module_);
    }

private:
    // ---- token helpers ----
    const Token& peek(size_t ahead = 0) const
    {
        size_t i = pos_ + ahead;
        return i < tokens_.size() ? tokens_[i] : tokens_.back();
    }
    bool at(Kind k) const { return peek().kind == k; }
    bool atText(std::string_view t) const { return peek().text == t && !at(Kind::End); }
    const Token& next()
    {
        const Token& t = peek();
        if (pos_ < tokens_.size() - 1)
            ++pos_;
        return t;
    }
    [[noreturn]] void fail(const std::string& what) const { throw ParseError(lineText(peek().line) + ": " + what); }
    void expect(std::string_view t)
    {
        if (!atText(t))
            fail("expected '" + std::string(t) + "' but found '" + std::string(peek().text) + "'");
        next();
    }
    bool accept(std::string_view t)
    {
        if (!atText(t))
            return false;
        next();
        return true;
    }
    void skipLine()
    {
        int line = peek().line;
        while (!at(Kind::End) && peek().line == line)
            next();
    }
    void skipPast(std::string_view t)
    {
        while (!at(Kind::End) && !atText(t))
            next();
        next();
    }
    void skipBalancedBraces()
    {
        int depth = 0;
        do {
            if (atText("{"))
                ++depth;
            if (atText("}"))
                --depth;
            next();
        } while (depth > 0 && !at(Kind::End));
    }
    uint64_t parseUnsigned()
    {
        uint64_t bits = 0;
        bool isFloatBits = false;
        if (!at(Kind::Number) || !parseNumberBits(peek().text, bits, isFloatBits))
            fail("expected a number but found '" + std::string(peek().text) + "'");
        next();
        return bits;
    }

    // ---- module level ----
    void parseTopLevel()
    {
        std::string_view t = peek().text;
        if (t == ".target") {
            // ".target sm_90[, ...]": the architecture the PTX was generated for (cudaFuncAttributes::ptxVersion).
            next();
            std::string_view arch = peek().text;
            if (arch.starts_with("sm_"))
                std::from_chars(arch.data() + 3, arch.data() + arch.size(), module_.targetArch);
            skipLine();
        } else if (t == ".version" || t == ".address_size" || t == ".file" || t == ".loc") {
            skipLine();
        } else if (t == ".visible" || t == ".weak" || t == ".common") {
            next();
        } else if (t == ".extern") {
            next();
            if (atText(".func"))
                skipPast(";");
            else
                pendingExtern_ = true;
        } else if (t == ".entry") {
            next();
            parseEntry();
        } else if (t == ".func") {
            skipFunctionDefinition();
        } else if (t == ".global" || t == ".const" || t == ".shared") {
            parseModuleVariable();
        } else if (t == ".section") {
            next();
            next();
            skipBalancedBraces();
        } else {
            fail("unexpected '" + std::string(t) + "' at module level");
        }
    }

    // Device functions nvcc did not inline are inlined at each call site
    // while decoding, so their headers and bodies are located first.
    struct FunctionDef {
        std::string name;
        std::string returnParam;          // empty if the function returns nothing
        std::vector<std::string> params;  // formal parameter names, in order
        size_t body = 0;                  // token index of '{', 0 for a prototype
    };

    void prescanFunctions()
    {
        int depth = 0;
        while (!at(Kind::End)) {
            if (atText("{"))
                ++depth;
            if (atText("}"))
                --depth;
            if (depth == 0 && atText(".func")) {
                parseFunctionHeader();
                continue;
            }
            next();
        }
    }

    // `.file N "path"[, timestamp, size]` lines (nvcc writes them after the code) name the files
    // that the `.loc N line column` directives inside bodies refer to.
    void prescanSourceFiles()
    {
        while (!at(Kind::End)) {
            if (atText(".file") && peek(1).kind == Kind::Number && peek(2).kind == Kind::String) {
                next();
                uint64_t number = parseUnsigned();
                std::string_view path = next().text;
                if (path.size() >= 2)
                    path = path.substr(1, path.size() - 2);  // the quotes
                if (size_t slash = path.find_last_of('/'); slash != std::string_view::npos)
                    path = path.substr(slash + 1);
                if (number < 4096) {
                    if (sourceFiles_.size() <= number)
                        sourceFiles_.resize(number + 1);
                    sourceFiles_[number] = std::string(path);
                }
                continue;
            }
            next();
        }
    }

    // `.loc file line column[, function_name label, inlined_at file line column]`: the source
    // position of the instructions that follow. Code inlined from a header (atomicAdd from the
    // toolkit's, a lesson's device helpers) is placed where it was called, if that is in a .cu file.
    void parseLoc()
    {
        int line = peek().line;
        next();  // .loc
        uint64_t file = 0, sourceLine = 0;
        if (peek().line == line && at(Kind::Number))
            file = parseUnsigned();
        if (peek().line == line && at(Kind::Number))
            sourceLine = parseUnsigned();
        while (!at(Kind::End) && peek().line == line) {
            if (atText("inlined_at") && peek(1).kind == Kind::Number && peek(2).kind == Kind::Number &&
                !isCudaSource(file)) {
                next();
                uint64_t callerFile = parseUnsigned();
                uint64_t callerLine = parseUnsigned();
                if (isCudaSource(callerFile)) {
                    file = callerFile;
                    sourceLine = callerLine;
                }
                continue;
            }
            next();
        }
        if (sourceLine != 0) {
            locFile_ = static_cast<uint32_t>(file);
            locLine_ = static_cast<uint32_t>(sourceLine);
        }
    }

    bool isCudaSource(uint64_t file) const
    {
        if (file >= sourceFiles_.size())
            return false;
        const std::string& name = sourceFiles_[file];
        return name.size() > 3 && name.compare(name.size() - 3, 3, ".cu") == 0;
    }

    void parseFunctionHeader()
    {
        next();  // .func
        FunctionDef f;
        if (accept("(")) {
            f.returnParam = parseDeclaration().name;
            expect(")");
        }
        std::string name(next().text);
        if (accept("(")) {
            while (!accept(")")) {
                if (accept(","))
                    continue;
                f.params.push_back(parseDeclaration().name);
            }
        }
        while (!atText("{") && !atText(";") && !at(Kind::End))
            next();
        f.name = name;
        if (atText("{")) {
            f.body = pos_;
            functions_[name] = f;
        } else if (!functions_.count(name)) {
            functions_[name] = f;
        }
    }

    void skipFunctionDefinition()
    {
        next();  // .func
        while (!atText("{") && !atText(";") && !at(Kind::End))
            next();
        if (atText(";"))
            next();
        else
            skipBalancedBraces();
    }

    struct Declaration {
        Space space = Space::Global;
        uint32_t align = 0;
        Type type = Type::B8;
        std::string name;
        uint64_t count = 1;
        bool unsized = false;
    };

    Declaration parseDeclaration()
    {
        Declaration d;
        std::string_view s = next().text;
        d.space = s == ".global"   ? Space::Global
                  : s == ".const"  ? Space::Const
                  : s == ".shared" ? Space::Shared
                  : s == ".local"  ? Space::Local
                                   : Space::Param;
        uint32_t vec = 1;
        while (at(Kind::Directive)) {
            std::string_view m = next().text;
            if (m == ".align")
                d.align = static_cast<uint32_t>(parseUnsigned());
            else if (m == ".v2")
                vec = 2;
            else if (m == ".v4")
                vec = 4;
            else if (m == ".attribute") {  // .attribute(.managed): storage the host shares, as any global here
                expect("(");
                while (at(Kind::Directive))
                    next();
                expect(")");
            } else if (auto it = typeNames().find(m); it != typeNames().end())
                d.type = it->second;
            // .ptr, state-space qualifiers of pointer params and the like carry no layout.
        }
        if (!at(Kind::Ident))
            fail("expected a name in a declaration");
        d.name = std::string(next().text);
        d.count = vec;
        while (accept("[")) {
            if (atText("]"))
                d.unsized = true;
            else
                d.count *= parseUnsigned();
            expect("]");
        }
        if (d.align == 0)
            d.align = static_cast<uint32_t>(typeBytes(d.type) * vec);
        return d;
    }

    void parseModuleVariable()
    {
        Declaration d = parseDeclaration();
        bool isExtern = pendingExtern_;
        pendingExtern_ = false;
        uint64_t elem = static_cast<uint64_t>(typeBytes(d.type));
        uint64_t size = d.unsized ? 0 : elem * d.count;
        if (d.space == Space::Shared) {
            moduleShared_[d.name] = {size, d.align, isExtern || d.unsized};
            if (atText("="))
                fail("initialiser on a .shared variable");
            expect(";");
            return;
        }
        Variable v;
        v.name = d.name;
        v.space = d.space;
        v.size = size;
        v.align = d.align;
        v.storage = allocate_(v.name, std::max<uint64_t>(size, 1), v.align);
        if (accept("="))
            parseInitializer(v, elem);
        expect(";");
        module_.variables.push_back(std::move(v));
    }

    void parseInitializer(Variable& v, uint64_t elem)
    {
        uint64_t index = 0;
        auto value = [&] {
            bool negative = accept("-");
            if (at(Kind::Ident))
                fail("address initialisers ('" + std::string(peek().text) + "') are not supported");
            uint64_t bits = 0;
            bool isFloatBits = false;
            if (!at(Kind::Number) || !parseNumberBits(peek().text, bits, isFloatBits))
                fail("bad initialiser value '" + std::string(peek().text) + "'");
            next();
            if (negative)
                bits = ~bits + 1;
            if ((index + 1) * elem > v.size)
                fail("too many initialisers for " + v.name);
            std::memcpy(v.storage + index * elem, &bits, elem);
            ++index;
        };
        if (accept("{")) {
            while (!accept("}")) {
                if (accept("{") || accept("}") || accept(","))
                    continue;
                value();
            }
        } else {
            value();
        }
    }

    // ---- kernels ----
    void parseEntry()
    {
        Kernel k;
        k.name = std::string(next().text);
        current_ = &k;
        scopes_.clear();
        scopes_.push_back(Scope{"k", false, {}, {}, {}, {}, {}, {}, {}, {}});
        subroutineOf_.clear();
        pendingCalls_.clear();
        paramRegisters_.clear();
        sharedOffsets_.clear();
        paramOffsets_.clear();
        inlinedCalls_ = 0;
        locFile_ = locLine_ = 0;
        k.sourceFiles = sourceFiles_;
        k.numRegs = kNumSpecialRegs;
        expect("(");
        while (!accept(")")) {
            if (accept(","))
                continue;
            Declaration d = parseDeclaration();
            uint64_t size = typeBytes(d.type) * d.count;
            uint32_t align = std::max<uint32_t>(d.align, 1);
            uint32_t offset = static_cast<uint32_t>(alignUp(k.paramBytes, align));
            k.params.push_back({d.name, offset, static_cast<uint32_t>(size)});
            paramOffsets_[d.name] = offset;
            k.paramBytes = offset + static_cast<uint32_t>(size);
        }
        while (!atText("{") && !at(Kind::End)) {
            std::string_view m = next().text;
            if (m == ".maxntid" || m == ".reqntid") {
                uint64_t product = parseUnsigned();
                while (accept(","))
                    product *= parseUnsigned();
                k.maxThreads = static_cast<uint32_t>(product);
            }
        }
        size_t bodyStart = pos_;
        try {
            parseBody(k);
            finishKernel(k);
        } catch (const KernelError& e) {
            k.error = e.what();
            k.code.clear();
            pos_ = bodyStart;
            skipBalancedBraces();
        } catch (const ParseError& e) {
            k.error = std::string(e.what()) + " in kernel " + demangle(k.name);
            k.code.clear();
            pos_ = bodyStart;
            skipBalancedBraces();
        }
        module_.kernels.push_back(std::move(k));
        current_ = nullptr;
    }

    [[noreturn]] void kernelFail(const std::string& what, int line) const
    {
        throw KernelError(what + " in kernel " + demangle(current_->name) + " at " + lineText(line));
    }

    void parseBody(Kernel& k)
    {
        expect("{");
        int depth = 1;
        std::vector<std::unordered_map<std::string, uint32_t>> shadowed;
        while (depth > 0) {
            if (at(Kind::End))
                fail("unexpected end of PTX inside " + k.name);
            std::string_view t = peek().text;
            // Nested braces open a block whose .reg declarations may shadow
            // outer names (nvcc's inline-asm blocks declare %r0, %r1, ...).
            if (t == "{") {
                next();
                ++depth;
                shadowed.push_back(scope().regs);
                continue;
            }
            if (t == "}") {
                next();
                if (--depth > 0) {
                    scope().regs = std::move(shadowed.back());
                    shadowed.pop_back();
                }
                continue;
            }
            if (t == ".reg") {
                parseRegDeclaration(k);
                continue;
            }
            if (t == ".local" || t == ".shared") {
                parseKernelVariable(k);
                continue;
            }
            if (t == ".param") {
                parseCallParam(k);
                continue;
            }
            if (t == ".pragma") {
                skipPast(";");
                continue;
            }
            if (t == ".loc") {
                parseLoc();
                continue;
            }
            if (t == ".file") {
                skipLine();
                continue;
            }
            if (at(Kind::Ident) && peek(1).text == ":") {
                scope().labels[std::string(t)] = static_cast<int32_t>(k.code.size());
                next();
                next();
                continue;
            }
            parseInstruction(k);
        }
    }

    // Every register holds 64 bits per lane whatever its declared type;
    // instructions say how to interpret them.
    void parseRegDeclaration(Kernel& k)
    {
        next();  // .reg
        while (at(Kind::Directive))
            next();
        do {
            std::string name(next().text);
            if (accept("<")) {
                uint64_t n = parseUnsigned();
                expect(">");
                for (uint64_t i = 0; i < n; ++i)
                    scope().regs[name + std::to_string(i)] = k.numRegs++;
            } else {
                scope().regs[name] = k.numRegs++;
            }
        } while (accept(","));
        expect(";");
    }

    void parseKernelVariable(Kernel& k)
    {
        Declaration d = parseDeclaration();
        uint64_t size = typeBytes(d.type) * d.count;
        if (d.space == Space::Local) {
            uint32_t offset = static_cast<uint32_t>(alignUp(k.localBytes, d.align));
            scope().localOffsets[d.name] = offset;
            k.localBytes = offset + static_cast<uint32_t>(size);
        } else {
            moduleShared_[d.name] = {size, d.align, d.unsized};
            bool dynamic = false;
            sharedOffset(k, d.name, dynamic);  // declared in this kernel: always part of its footprint
        }
        expect(";");
    }

    // `.param .b64 param0;` inside a call sequence. Call parameters live in
    // registers, one per (parameter, byte offset) used, so aggregates such as
    // `.param .align 8 .b8 retval0[16]` work as long as each piece is written
    // and read with the same offset and width (which is what nvcc emits).
    void parseCallParam(Kernel&)
    {
        Declaration d = parseDeclaration();
        scope().callParams.insert(d.name);
        expect(";");
    }

    // Kernel-wide key of a call parameter visible in the current scope, or
    // empty. A function's formal parameters alias the caller's arguments.
    std::string callParamKey(const std::string& name)
    {
        Scope& s = scope();
        if (auto a = s.paramAliases.find(name); a != s.paramAliases.end())
            return a->second;
        if (s.callParams.count(name))
            return s.id + ":" + name;
        return {};
    }

    uint32_t callParamRegister(const std::string& key, int64_t offset)
    {
        auto [it, inserted] = paramRegisters_.try_emplace(key + "+" + std::to_string(offset), 0);
        if (inserted)
            it->second = current_->numRegs++;
        return it->second;
    }

    static uint8_t sharedSymbolOf(const Kernel& k, const std::string& name)
    {
        for (size_t i = 0; i < k.sharedVariables.size() && i < kDynamicSharedSymbol; ++i)
            if (k.sharedVariables[i].name == name)
                return static_cast<uint8_t>(i);
        return kNoSharedSymbol;
    }

    uint32_t sharedOffset(Kernel& k, const std::string& name, bool& isDynamic)
    {
        const ModuleShared& s = moduleShared_.at(name);
        isDynamic = s.isExtern;
        if (s.isExtern)
            return 0;
        auto it = sharedOffsets_.find(name);
        if (it != sharedOffsets_.end())
            return it->second;
        uint32_t offset = static_cast<uint32_t>(alignUp(k.staticSmem, s.align));
        k.staticSmem = offset + static_cast<uint32_t>(s.size);
        sharedOffsets_[name] = offset;
        k.sharedVariables.push_back({name, offset, static_cast<uint32_t>(s.size)});
        return offset;
    }

    // ---- instructions ----
    void parseInstruction(Kernel& k)
    {
        Instr in;
        in.line = static_cast<uint32_t>(peek().line);
        in.sourceLine = locLine_;
        in.sourceFile = locFile_;
        if (accept("@")) {
            in.guardNeg = accept("!");
            in.guard = registerIndex(next());
        }
        const Token& opTok = next();
        if (opTok.kind != Kind::Ident)
            kernelFail("unexpected '" + std::string(opTok.text) + "'", opTok.line);
        auto opIt = mnemonics().find(opTok.text);
        if (opIt == mnemonics().end())
            kernelFail("unsupported PTX instruction '" + std::string(opTok.text) + "'", opTok.line);
        in.op = opIt->second.op;
        in.carryIn = opIt->second.carryIn;
        std::string fullName(opTok.text);
        std::vector<Type> types;
        while (at(Kind::Directive)) {
            std::string_view m = next().text;
            fullName += m;
            while (atText(":") && peek(1).text == ":") {  // e.g. .shared::cta, .L2::128B
                next();
                next();
                fullName += "::" + std::string(next().text);
            }
            if (std::string problem = applyModifier(in, m, types); !problem.empty())
                kernelFail(problem, opTok.line);
        }
        if (in.op == Op::Membar)  // membar, fence.sc and fence.acq_rel order both ways; a proxy fence neither
            in.order = (in.order & OrderProxy) ? OrderProxy : (in.order | OrderAcquire | OrderRelease);
        if (in.op == Op::Atom || in.op == Op::Red)
            in.order |= OrderStrong;
        if (!types.empty())
            in.type = types[0];
        if (types.size() > 1) {
            if (in.op == Op::Cvt || in.op == Op::Set || in.op == Op::Tex) {  // cvt.dtype.atype, set.cmp.dtype.stype,
                                                                             // tex.1d.v4.dtype.ctype
                in.srcType = types[1];
            } else if (in.op == Op::Dp4a || in.op == Op::Dp2a) {  // dp4a.atype.btype
                in.srcType = types[0];
                in.type = types[1];
            } else if (in.op == Op::Vabsdiff4 && types.size() == 3) {  // vabsdiff4.dtype.atype.btype
                in.srcType = types[1];
                in.type = types[2];
            } else {
                in.type = types.back();
            }
        }
        if (in.op == Op::Mul || in.op == Op::Mad)
            in.srcType = in.type;
        if (in.op == Op::Cvta && fullName.find(".to") != std::string::npos)
            in.op = Op::CvtaTo;
        if (in.op == Op::Bar && fullName.find(".warp") != std::string::npos)
            in.op = Op::WarpSync;
        if (in.op == Op::Bar && fullName.find(".arrive") != std::string::npos)
            kernelFail("unsupported PTX instruction '" + fullName + "'", opTok.line);
        if (in.op == Op::Bar && fullName.find(".red") != std::string::npos) {
            in.mode = fullName.find(".popc") != std::string::npos  ? BarRedPopc
                      : fullName.find(".and") != std::string::npos ? BarRedAnd
                                                                   : BarRedOr;
        }
        if (in.op == Op::Call) {
            parseCall(k, in);
        } else {
            // Layout: ops[0] first operand, ops[1] its `|p` partner, then the rest.
            bool first = true;
            while (!atText(";")) {
                if (at(Kind::End))
                    kernelFail("missing ';'", in.line);
                if (!first)
                    expect(",");
                parseOperand(k, in);
                if (first) {
                    if (accept("|")) {
                        in.hasPairDest = true;
                        parseOperand(k, in);
                    } else {
                        in.numOps = 2;
                    }
                    first = false;
                }
            }
            next();
            if (in.numOps < 2)
                in.numOps = 2;
        }
        rewriteCallParamAccess(in);
        if (in.op == Op::Inline)
            return;  // the callee's body was emitted instead
        if (in.op == Op::Ret && scope().isFunction) {
            in.op = Op::Bra;  // return from an inlined function: jump past its body
            in.numOps = 0;
            scope().returns.push_back(k.code.size());
        } else if (in.op == Op::Bra) {
            scope().branchFixups.push_back({k.code.size(), pendingLabel_, in.line});
        }
        k.code.push_back(in);
    }

    void parseCall(Kernel& k, Instr& in)
    {
        // call[.uni] (retval), callee, (param0, param1, ...);
        std::string retKey;
        if (accept("(")) {
            retKey = callParamKeyOf(next());
            expect(")");
            expect(",");
        }
        const Token& calleeTok = next();
        std::string callee(calleeTok.text);
        std::vector<std::string> argKeys;
        if (accept(",")) {
            expect("(");
            while (!accept(")")) {
                if (accept(","))
                    continue;
                argKeys.push_back(callParamKeyOf(next()));
            }
        }
        expect(";");
        if (callee == "vprintf" || callee == "__assertfail" || callee == "malloc" || callee == "free") {
            in.mode = callee == "vprintf"  ? CallVprintf
                      : callee == "malloc" ? CallMalloc
                      : callee == "free"   ? CallFree
                                           : CallAssertFail;
            if (!retKey.empty())
                in.ops[0] = registerOperand(callParamRegister(retKey, 0));
            in.numOps = 2;
            for (const std::string& key : argKeys)  // __assertfail's 5th (char size) is unused
                if (in.numOps < 6)
                    in.ops[in.numOps++] = registerOperand(callParamRegister(key, 0));
            return;
        }
        auto f = functions_.find(callee);
        if (f == functions_.end() || f->second.body == 0)
            kernelFail("call to undefined device function '" + callee + "'", calleeTok.line);
        // A function calling itself, directly or through others, cannot be inlined: it is called
        // (a subroutine, emitted once after the kernel's body).
        const bool recursive =
            std::any_of(scopes_.begin(), scopes_.end(), [&](const Scope& sc) { return sc.function == callee; });
        if (recursive) {
            in.op = Op::CallSub;
            in.numOps = 0;
            in.target = static_cast<int32_t>(pendingCalls_.size());
            pendingCalls_.push_back({subroutineFor(k, f->second), argKeys, retKey});
            return;
        }
        if (scopes_.size() > 16)
            kernelFail("device function calls nested too deeply", calleeTok.line);
        inlineFunction(k, f->second, retKey, argKeys);
        in.op = Op::Inline;
    }

    // Emits the callee's body in place of the call, in a fresh scope whose
    // formal parameters alias the caller's call parameters.
    void inlineFunction(Kernel& k, const FunctionDef& f, const std::string& retKey,
                        const std::vector<std::string>& argKeys)
    {
        Scope callee{"f" + std::to_string(++inlinedCalls_), true, {}, {}, {}, {}, {}, {}, {}, f.name};
        if (!f.returnParam.empty())
            callee.paramAliases[f.returnParam] = retKey;
        for (size_t i = 0; i < f.params.size() && i < argKeys.size(); ++i)
            callee.paramAliases[f.params[i]] = argKeys[i];
        size_t resume = pos_;
        const uint32_t callerLocFile = locFile_, callerLocLine = locLine_;
        pos_ = f.body;
        scopes_.push_back(std::move(callee));
        parseBody(k);
        resolveBranches(k);
        for (size_t r : scope().returns)
            k.code[r].target = static_cast<int32_t>(k.code.size());
        scopes_.pop_back();
        pos_ = resume;
        locFile_ = callerLocFile;
        locLine_ = callerLocLine;
    }

    std::string callParamKeyOf(const Token& t)
    {
        std::string key = callParamKey(std::string(t.text));
        if (key.empty())
            kernelFail("unknown call parameter '" + std::string(t.text) + "'", t.line);
        return key;
    }

    static Operand registerOperand(uint32_t reg)
    {
        Operand o;
        o.kind = Operand::Kind::Reg;
        o.reg = reg;
        return o;
    }

    // st.param [param0+0], x and ld.param x, [retval0+0] become moves, since
    // call parameters live in registers.
    void rewriteCallParamAccess(Instr& in)
    {
        if (in.space != Space::Param || (in.op != Op::Ld && in.op != Op::St))
            return;
        int addrIndex = in.op == Op::Ld ? 2 : 0;
        Operand& a = in.ops[addrIndex];
        if (a.kind != Operand::Kind::Reg)
            return;  // kernel parameter, stays a load
        if (in.op == Op::Ld) {
            in.ops[2] = a;
        } else {
            in.ops[0] = a;  // the value stays in ops[2]
        }
        in.op = Op::Mov;
        in.space = Space::Generic;
    }

    uint32_t registerIndex(const Token& t)
    {
        auto& regs = scope().regs;
        auto it = regs.find(std::string(t.text));
        if (it == regs.end())
            kernelFail("unknown register '" + std::string(t.text) + "'", t.line);
        return it->second;
    }

    void parseOperand(Kernel& k, Instr& in)
    {
        if (in.numOps == 6)
            kernelFail("too many operands", in.line);
        Operand& o = in.ops[in.numOps++];
        if (accept("{")) {
            o.kind = Operand::Kind::Vec;
            while (!accept("}")) {
                if (accept(","))
                    continue;
                if (o.count == 4)
                    kernelFail("vector operand with more than 4 elements", in.line);
                if (atText("_")) {
                    next();
                    o.vec[o.count++] = Operand::kNoReg;
                } else {
                    o.vec[o.count++] = registerIndex(next());
                }
            }
            return;
        }
        if (accept("[")) {
            if (in.op == Op::Tex) {  // [texture object, {coordinates}]: ops[2] and ops[3]
                --in.numOps;
                parseOperand(k, in);
                expect(",");
                parseOperand(k, in);
                expect("]");
                if (in.ops[2].kind != Operand::Kind::Reg || in.ops[3].kind != Operand::Kind::Vec ||
                    in.ops[3].vec[0] == Operand::kNoReg)
                    kernelFail("tex: expected [texture object register, {coordinate register}]", in.line);
                return;
            }
            o.kind = Operand::Kind::Addr;
            parseAddress(k, o);
            expect("]");
            return;
        }
        if (accept("!"))
            kernelFail("negated predicate operands are not supported", in.line);
        bool negative = accept("-");
        const Token& t = next();
        if (t.kind == Kind::Number) {
            uint64_t bits = 0;
            bool isFloatBits = false;
            if (!parseNumberBits(t.text, bits, isFloatBits))
                kernelFail("bad number '" + std::string(t.text) + "'", t.line);
            if (negative)
                bits = ~bits + 1;
            o.kind = Operand::Kind::Imm;
            o.imm = static_cast<int64_t>(bits);
            return;
        }
        if (t.kind != Kind::Ident)
            kernelFail("unexpected operand '" + std::string(t.text) + "'", t.line);
        std::string name(t.text);
        if (name == "_") {
            o.kind = Operand::Kind::Sink;
            return;
        }
        // Registers usually start with '%', but inline asm may declare others
        // (e.g. `.reg .pred __$temp3;`).
        if (name[0] == '%' || scope().regs.count(name)) {
            if (resolveSpecialRegister(name, o))
                return;
            o.kind = Operand::Kind::Reg;
            o.reg = registerIndex(t);
            return;
        }
        if (in.op == Op::Bra) {
            pendingLabel_ = name;
            o.kind = Operand::Kind::Imm;
            return;
        }
        resolveSymbol(k, name, o, t.line);
    }

    bool resolveSpecialRegister(const std::string& name, Operand& o)
    {
        static const std::unordered_map<std::string_view, uint32_t> vectors = {
            {"%tid", SrTidX},
            {"%ntid", SrNtidX},
            {"%ctaid", SrCtaidX},
            {"%nctaid", SrNctaidX},
        };
        if (auto v = vectors.find(name); v != vectors.end()) {
            std::string_view comp = next().text;
            uint32_t offset = comp == ".x" ? 0 : comp == ".y" ? 1 : comp == ".z" ? 2 : 3;
            if (offset == 3)
                fail("bad component of " + name);
            o.kind = Operand::Kind::Reg;
            o.reg = v->second + offset;
            return true;
        }
        if (auto s = specialRegNames().find(name); s != specialRegNames().end()) {
            o.kind = Operand::Kind::Reg;
            o.reg = s->second;
            return true;
        }
        if (name == "%clock") {
            o.kind = Operand::Kind::Clock32;
            return true;
        }
        if (name == "%clock64") {
            o.kind = Operand::Kind::Clock64;
            return true;
        }
        if (name == "%globaltimer") {
            o.kind = Operand::Kind::GlobalTimer;
            return true;
        }
        return false;
    }

    // A symbol used as a value or address base: its address in its own space.
    void resolveSymbol(Kernel& k, const std::string& name, Operand& o, int line)
    {
        if (std::string key = callParamKey(name); !key.empty()) {
            o.kind = Operand::Kind::Reg;
            o.reg = callParamRegister(key, 0);
            return;
        }
        int64_t address = 0;
        if (name == "WARP_SZ") {
            address = 32;
        } else if (auto p = paramOffsets_.find(name); p != paramOffsets_.end()) {
            address = p->second;
        } else if (auto l = scope().localOffsets.find(name); l != scope().localOffsets.end()) {
            address = l->second;
        } else if (moduleShared_.count(name)) {
            bool dynamic = false;
            address = sharedOffset(k, name, dynamic);
            o.addsDynamicSmemBase = dynamic;
            o.sharedSymbol = dynamic ? kDynamicSharedSymbol : sharedSymbolOf(k, name);
        } else if (const Variable* v = module_.findVariable(name)) {
            address = static_cast<int64_t>(reinterpret_cast<uintptr_t>(v->storage));
        } else {
            kernelFail("unknown symbol '" + name + "'", line);
        }
        if (o.kind != Operand::Kind::Addr)
            o.kind = Operand::Kind::Imm;
        o.imm += address;
    }

    void parseAddress(Kernel& k, Operand& o)
    {
        const Token& t = peek();
        if (t.kind == Kind::Ident) {
            next();
            std::string name(t.text);
            if (name[0] == '%' || scope().regs.count(name)) {
                o.reg = registerIndex(t);
            } else if (std::string key = callParamKey(name); !key.empty()) {
                int64_t offset = accept("+") ? parseSignedOffset() : 0;
                o.kind = Operand::Kind::Reg;  // rewritten into a move afterwards
                o.reg = callParamRegister(key, offset);
                return;
            } else {
                resolveSymbol(k, name, o, t.line);
                o.kind = Operand::Kind::Addr;
            }
            if (accept("+"))
                o.imm += parseSignedOffset();
            else if (atText("-"))
                o.imm += parseSignedOffset();
        } else {
            o.imm = parseSignedOffset();
        }
    }

    int64_t parseSignedOffset()
    {
        bool negative = accept("-");
        uint64_t v = parseUnsigned();
        return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    }

    void resolveBranches(Kernel& k)
    {
        for (const BranchFixup& f : scope().branchFixups) {
            auto it = scope().labels.find(f.label);
            if (it == scope().labels.end())
                kernelFail("unknown label '" + f.label + "'", static_cast<int>(f.line));
            k.code[f.index].target = it->second;
        }
    }

    void finishKernel(Kernel& k)
    {
        resolveBranches(k);
        // Every path must end in ret/exit; falling off the end behaves like ret.
        Instr ret;
        ret.op = Op::Ret;
        ret.line = k.code.empty() ? 0 : k.code.back().line;
        k.code.push_back(ret);
        emitSubroutines(k);
        uint32_t dynamicBase = static_cast<uint32_t>(alignUp(k.staticSmem, 16));
        for (Instr& in : k.code)
            for (Operand& o : in.ops)
                if (o.addsDynamicSmemBase)
                    o.imm += dynamicBase;
        computeReconvergencePoints(k.code);
        attributeSharedAccesses(k);
    }

    // The subroutine of recursive function `f` in this kernel (its body is emitted at the end).
    uint32_t subroutineFor(Kernel& k, const FunctionDef& f)
    {
        auto [it, added] = subroutineOf_.try_emplace(f.name, static_cast<uint32_t>(k.subroutines.size()));
        if (added) {
            Subroutine s;
            s.name = f.name;
            k.subroutines.push_back(s);
        }
        return it->second;
    }

    static std::string subroutineKey(const std::string& function, const std::string& what)
    {
        return "sub:" + function + ":" + what;
    }

    // Each recursive function's body, once, after the kernel's (a body may call more of them), then
    // the registers each call copies: the caller's arguments into the parameters' registers the
    // body reads, at every offset it reads, and the return value's back.
    void emitSubroutines(Kernel& k)
    {
        const size_t resume = pos_;
        const uint32_t kernelLocFile = locFile_, kernelLocLine = locLine_;
        for (size_t i = 0; i < k.subroutines.size(); ++i) {
            const std::string name = k.subroutines[i].name;
            const FunctionDef& f = functions_.at(name);
            Scope body{"s" + std::to_string(i), true, {}, {}, {}, {}, {}, {}, {}, name};
            if (!f.returnParam.empty())
                body.paramAliases[f.returnParam] = subroutineKey(name, "result");
            for (size_t p = 0; p < f.params.size(); ++p)
                body.paramAliases[f.params[p]] = subroutineKey(name, std::to_string(p));
            const uint32_t firstRegister = k.numRegs, firstLocal = k.localBytes;
            const auto entry = static_cast<int32_t>(k.code.size());
            pos_ = f.body;
            scopes_.push_back(std::move(body));
            parseBody(k);
            resolveBranches(k);
            const auto exit = static_cast<int32_t>(k.code.size());
            for (size_t r : scope().returns)
                k.code[r].target = exit;
            scopes_.pop_back();
            Instr end;
            end.op = Op::SubReturn;
            end.line = k.code.empty() ? 0 : k.code.back().line;
            k.code.push_back(end);
            Subroutine& s = k.subroutines[i];
            s.entry = entry;
            s.exit = exit;
            s.firstRegister = firstRegister;
            s.endRegister = k.numRegs;
            s.firstLocal = firstLocal;
            s.endLocal = k.localBytes;
        }
        pos_ = resume;
        locFile_ = kernelLocFile;
        locLine_ = kernelLocLine;
        for (const PendingCall& call : pendingCalls_) {
            SubroutineCall c;
            c.subroutine = call.subroutine;
            const std::string& name = k.subroutines[call.subroutine].name;
            for (const auto& [key, reg] :
                 std::map<std::string, uint32_t>(paramRegisters_.begin(), paramRegisters_.end())) {
                for (size_t p = 0; p < call.argKeys.size(); ++p) {
                    const std::string prefix = subroutineKey(name, std::to_string(p)) + "+";
                    if (key.rfind(prefix, 0) == 0)
                        c.arguments.emplace_back(
                            callParamRegister(call.argKeys[p], std::stoll(key.substr(prefix.size()))), reg);
                }
                const std::string result = subroutineKey(name, "result") + "+";
                if (!call.retKey.empty() && key.rfind(result, 0) == 0)
                    c.results.emplace_back(reg, callParamRegister(call.retKey, std::stoll(key.substr(result.size()))));
            }
            k.subroutineCalls.push_back(std::move(c));
        }
    }

    struct BranchFixup {
        size_t index;
        std::string label;
        uint32_t line;
    };

    // Names visible in the kernel body or in one inlined function body.
    struct Scope {
        std::string id;
        bool isFunction;
        std::unordered_map<std::string, uint32_t> regs;
        std::unordered_map<std::string, int32_t> labels;
        std::unordered_map<std::string, uint32_t> localOffsets;
        std::unordered_map<std::string, std::string> paramAliases;
        std::unordered_set<std::string> callParams;
        std::vector<BranchFixup> branchFixups;
        std::vector<size_t> returns;  // inlined `ret`s, jumping past the body
        std::string function;         // the device function whose body this is, empty for the kernel's
    };
    Scope& scope() { return scopes_.back(); }

    std::vector<Token> tokens_;
    size_t pos_ = 0;
    const VariableAllocator& allocate_;
    Module module_;
    bool pendingExtern_ = false;
    Kernel* current_ = nullptr;
    std::string pendingLabel_;
    std::vector<Scope> scopes_;
    std::unordered_map<std::string, FunctionDef> functions_;
    std::unordered_map<std::string, uint32_t> paramRegisters_;
    int inlinedCalls_ = 0;
    // Recursive functions called in this kernel: their Kernel::subroutines index, and the calls
    // whose registers are known once every body is parsed.
    struct PendingCall {
        uint32_t subroutine;
        std::vector<std::string> argKeys;
        std::string retKey;
    };
    std::unordered_map<std::string, uint32_t> subroutineOf_;
    std::vector<PendingCall> pendingCalls_;
    std::vector<std::string> sourceFiles_;  // .file names by number
    uint32_t locFile_ = 0, locLine_ = 0;    // the last .loc of the body being decoded
    std::unordered_map<std::string, uint32_t> sharedOffsets_;
    std::unordered_map<std::string, uint32_t> paramOffsets_;
    std::map<std::string, ModuleShared> moduleShared_;
};

}  // namespace

Module parseModule(std::string_view ptx, const VariableAllocator& allocate)
{
    Parser parser(ptx, allocate);
    return parser.run();
}

}  // namespace cudasim::ptx
