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

std::string line_text(int line)
{
    return "PTX line " + std::to_string(line);
}

uint64_t align_up(uint64_t v, uint64_t a)
{
    return a <= 1 ? v : (v + a - 1) / a * a;
}

struct ModuleShared {
    uint64_t size = 0;
    uint32_t align = 1;
    bool is_extern = false;
};

class Parser {
public:
    Parser(std::string_view text, const VariableAllocator& allocate) : tokens_(tokenize(text)), allocate_(allocate) {}

    Module run()
    {
        prescan_functions();
        pos_ = 0;
        prescan_source_files();
        pos_ = 0;
        while (!at(Kind::End))
            parse_top_level();
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
    bool at_text(std::string_view t) const { return peek().text == t && !at(Kind::End); }
    const Token& next()
    {
        const Token& t = peek();
        if (pos_ < tokens_.size() - 1)
            ++pos_;
        return t;
    }
    [[noreturn]] void fail(const std::string& what) const { throw ParseError(line_text(peek().line) + ": " + what); }
    void expect(std::string_view t)
    {
        if (!at_text(t))
            fail("expected '" + std::string(t) + "' but found '" + std::string(peek().text) + "'");
        next();
    }
    bool accept(std::string_view t)
    {
        if (!at_text(t))
            return false;
        next();
        return true;
    }
    void skip_line()
    {
        int line = peek().line;
        while (!at(Kind::End) && peek().line == line)
            next();
    }
    void skip_past(std::string_view t)
    {
        while (!at(Kind::End) && !at_text(t))
            next();
        next();
    }
    void skip_balanced_braces()
    {
        int depth = 0;
        do {
            if (at_text("{"))
                ++depth;
            if (at_text("}"))
                --depth;
            next();
        } while (depth > 0 && !at(Kind::End));
    }
    uint64_t parse_unsigned()
    {
        uint64_t bits = 0;
        bool is_float_bits = false;
        if (!at(Kind::Number) || !parse_number_bits(peek().text, bits, is_float_bits))
            fail("expected a number but found '" + std::string(peek().text) + "'");
        next();
        return bits;
    }

    // ---- module level ----
    void parse_top_level()
    {
        std::string_view t = peek().text;
        if (t == ".target") {
            // ".target sm_90[, ...]": the architecture the PTX was generated for (cudaFuncAttributes::ptxVersion).
            next();
            std::string_view arch = peek().text;
            if (arch.starts_with("sm_"))
                std::from_chars(arch.data() + 3, arch.data() + arch.size(), module_.target_arch);
            skip_line();
        } else if (t == ".version" || t == ".address_size" || t == ".file" || t == ".loc") {
            skip_line();
        } else if (t == ".visible" || t == ".weak" || t == ".common") {
            next();
        } else if (t == ".extern") {
            next();
            if (at_text(".func"))
                skip_past(";");
            else
                pending_extern_ = true;
        } else if (t == ".entry") {
            next();
            parse_entry();
        } else if (t == ".func") {
            skip_function_definition();
        } else if (t == ".global" || t == ".const" || t == ".shared") {
            parse_module_variable();
        } else if (t == ".section") {
            next();
            next();
            skip_balanced_braces();
        } else {
            fail("unexpected '" + std::string(t) + "' at module level");
        }
    }

    // Device functions nvcc did not inline are inlined at each call site
    // while decoding, so their headers and bodies are located first.
    struct FunctionDef {
        std::string name;
        std::string return_param;         // empty if the function returns nothing
        std::vector<std::string> params;  // formal parameter names, in order
        size_t body = 0;                  // token index of '{', 0 for a prototype
    };

    void prescan_functions()
    {
        int depth = 0;
        while (!at(Kind::End)) {
            if (at_text("{"))
                ++depth;
            if (at_text("}"))
                --depth;
            if (depth == 0 && at_text(".func")) {
                parse_function_header();
                continue;
            }
            next();
        }
    }

    // `.file N "path"[, timestamp, size]` lines (nvcc writes them after the code) name the files
    // that the `.loc N line column` directives inside bodies refer to.
    void prescan_source_files()
    {
        while (!at(Kind::End)) {
            if (at_text(".file") && peek(1).kind == Kind::Number && peek(2).kind == Kind::String) {
                next();
                uint64_t number = parse_unsigned();
                std::string_view path = next().text;
                if (path.size() >= 2)
                    path = path.substr(1, path.size() - 2);  // the quotes
                if (size_t slash = path.find_last_of('/'); slash != std::string_view::npos)
                    path = path.substr(slash + 1);
                if (number < 4096) {
                    if (source_files_.size() <= number)
                        source_files_.resize(number + 1);
                    source_files_[number] = std::string(path);
                }
                continue;
            }
            next();
        }
    }

    // `.loc file line column[, function_name label, inlined_at file line column]`: the source
    // position of the instructions that follow. Code inlined from a header (atomicAdd from the
    // toolkit's, a lesson's device helpers) is placed where it was called, if that is in a .cu file.
    void parse_loc()
    {
        int line = peek().line;
        next();  // .loc
        uint64_t file = 0, source_line = 0;
        if (peek().line == line && at(Kind::Number))
            file = parse_unsigned();
        if (peek().line == line && at(Kind::Number))
            source_line = parse_unsigned();
        while (!at(Kind::End) && peek().line == line) {
            if (at_text("inlined_at") && peek(1).kind == Kind::Number && peek(2).kind == Kind::Number &&
                !is_cuda_source(file)) {
                next();
                uint64_t caller_file = parse_unsigned();
                uint64_t caller_line = parse_unsigned();
                if (is_cuda_source(caller_file)) {
                    file = caller_file;
                    source_line = caller_line;
                }
                continue;
            }
            next();
        }
        if (source_line != 0) {
            loc_file_ = static_cast<uint32_t>(file);
            loc_line_ = static_cast<uint32_t>(source_line);
        }
    }

    bool is_cuda_source(uint64_t file) const
    {
        if (file >= source_files_.size())
            return false;
        const std::string& name = source_files_[file];
        return name.size() > 3 && name.compare(name.size() - 3, 3, ".cu") == 0;
    }

    void parse_function_header()
    {
        next();  // .func
        FunctionDef f;
        if (accept("(")) {
            f.return_param = parse_declaration().name;
            expect(")");
        }
        std::string name(next().text);
        if (accept("(")) {
            while (!accept(")")) {
                if (accept(","))
                    continue;
                f.params.push_back(parse_declaration().name);
            }
        }
        while (!at_text("{") && !at_text(";") && !at(Kind::End))
            next();
        f.name = name;
        if (at_text("{")) {
            f.body = pos_;
            functions_[name] = f;
        } else if (!functions_.count(name)) {
            functions_[name] = f;
        }
    }

    void skip_function_definition()
    {
        next();  // .func
        while (!at_text("{") && !at_text(";") && !at(Kind::End))
            next();
        if (at_text(";"))
            next();
        else
            skip_balanced_braces();
    }

    struct Declaration {
        Space space = Space::Global;
        uint32_t align = 0;
        Type type = Type::B8;
        std::string name;
        uint64_t count = 1;
        bool unsized = false;
    };

    Declaration parse_declaration()
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
                d.align = static_cast<uint32_t>(parse_unsigned());
            else if (m == ".v2")
                vec = 2;
            else if (m == ".v4")
                vec = 4;
            else if (m == ".attribute") {  // .attribute(.managed): storage the host shares, as any global here
                expect("(");
                while (at(Kind::Directive))
                    next();
                expect(")");
            } else if (auto it = type_names().find(m); it != type_names().end())
                d.type = it->second;
            // .ptr, state-space qualifiers of pointer params and the like carry no layout.
        }
        if (!at(Kind::Ident))
            fail("expected a name in a declaration");
        d.name = std::string(next().text);
        d.count = vec;
        while (accept("[")) {
            if (at_text("]"))
                d.unsized = true;
            else
                d.count *= parse_unsigned();
            expect("]");
        }
        if (d.align == 0)
            d.align = static_cast<uint32_t>(type_bytes(d.type) * vec);
        return d;
    }

    void parse_module_variable()
    {
        Declaration d = parse_declaration();
        bool is_extern = pending_extern_;
        pending_extern_ = false;
        uint64_t elem = static_cast<uint64_t>(type_bytes(d.type));
        uint64_t size = d.unsized ? 0 : elem * d.count;
        if (d.space == Space::Shared) {
            module_shared_[d.name] = {size, d.align, is_extern || d.unsized};
            if (at_text("="))
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
            parse_initializer(v, elem);
        expect(";");
        module_.variables.push_back(std::move(v));
    }

    void parse_initializer(Variable& v, uint64_t elem)
    {
        uint64_t index = 0;
        auto value = [&] {
            bool negative = accept("-");
            if (at(Kind::Ident))
                fail("address initialisers ('" + std::string(peek().text) + "') are not supported");
            uint64_t bits = 0;
            bool is_float_bits = false;
            if (!at(Kind::Number) || !parse_number_bits(peek().text, bits, is_float_bits))
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
    void parse_entry()
    {
        Kernel k;
        k.name = std::string(next().text);
        current_ = &k;
        scopes_.clear();
        scopes_.push_back(Scope{"k", false, {}, {}, {}, {}, {}, {}, {}, {}});
        subroutine_of_.clear();
        pending_calls_.clear();
        param_registers_.clear();
        shared_offsets_.clear();
        param_offsets_.clear();
        inlined_calls_ = 0;
        loc_file_ = loc_line_ = 0;
        k.source_files = source_files_;
        k.num_regs = kNumSpecialRegs;
        expect("(");
        while (!accept(")")) {
            if (accept(","))
                continue;
            Declaration d = parse_declaration();
            uint64_t size = type_bytes(d.type) * d.count;
            uint32_t align = std::max<uint32_t>(d.align, 1);
            uint32_t offset = static_cast<uint32_t>(align_up(k.param_bytes, align));
            k.params.push_back({d.name, offset, static_cast<uint32_t>(size)});
            param_offsets_[d.name] = offset;
            k.param_bytes = offset + static_cast<uint32_t>(size);
        }
        while (!at_text("{") && !at(Kind::End)) {
            std::string_view m = next().text;
            if (m == ".maxntid" || m == ".reqntid") {
                uint64_t product = parse_unsigned();
                while (accept(","))
                    product *= parse_unsigned();
                k.max_threads = static_cast<uint32_t>(product);
            }
        }
        size_t body_start = pos_;
        try {
            parse_body(k);
            finish_kernel(k);
        } catch (const KernelError& e) {
            k.error = e.what();
            k.code.clear();
            pos_ = body_start;
            skip_balanced_braces();
        } catch (const ParseError& e) {
            k.error = std::string(e.what()) + " in kernel " + demangle(k.name);
            k.code.clear();
            pos_ = body_start;
            skip_balanced_braces();
        }
        module_.kernels.push_back(std::move(k));
        current_ = nullptr;
    }

    [[noreturn]] void kernel_fail(const std::string& what, int line) const
    {
        throw KernelError(what + " in kernel " + demangle(current_->name) + " at " + line_text(line));
    }

    void parse_body(Kernel& k)
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
                parse_reg_declaration(k);
                continue;
            }
            if (t == ".local" || t == ".shared") {
                parse_kernel_variable(k);
                continue;
            }
            if (t == ".param") {
                parse_call_param(k);
                continue;
            }
            if (t == ".pragma") {
                skip_past(";");
                continue;
            }
            if (t == ".loc") {
                parse_loc();
                continue;
            }
            if (t == ".file") {
                skip_line();
                continue;
            }
            if (at(Kind::Ident) && peek(1).text == ":") {
                scope().labels[std::string(t)] = static_cast<int32_t>(k.code.size());
                next();
                next();
                continue;
            }
            parse_instruction(k);
        }
    }

    // Every register holds 64 bits per lane whatever its declared type;
    // instructions say how to interpret them.
    void parse_reg_declaration(Kernel& k)
    {
        next();  // .reg
        while (at(Kind::Directive))
            next();
        do {
            std::string name(next().text);
            if (accept("<")) {
                uint64_t n = parse_unsigned();
                expect(">");
                for (uint64_t i = 0; i < n; ++i)
                    scope().regs[name + std::to_string(i)] = k.num_regs++;
            } else {
                scope().regs[name] = k.num_regs++;
            }
        } while (accept(","));
        expect(";");
    }

    void parse_kernel_variable(Kernel& k)
    {
        Declaration d = parse_declaration();
        uint64_t size = type_bytes(d.type) * d.count;
        if (d.space == Space::Local) {
            uint32_t offset = static_cast<uint32_t>(align_up(k.local_bytes, d.align));
            scope().local_offsets[d.name] = offset;
            k.local_bytes = offset + static_cast<uint32_t>(size);
        } else {
            module_shared_[d.name] = {size, d.align, d.unsized};
            bool dynamic = false;
            shared_offset(k, d.name, dynamic);  // declared in this kernel: always part of its footprint
        }
        expect(";");
    }

    // `.param .b64 param0;` inside a call sequence. Call parameters live in
    // registers, one per (parameter, byte offset) used, so aggregates such as
    // `.param .align 8 .b8 retval0[16]` work as long as each piece is written
    // and read with the same offset and width (which is what nvcc emits).
    void parse_call_param(Kernel&)
    {
        Declaration d = parse_declaration();
        scope().call_params.insert(d.name);
        expect(";");
    }

    // Kernel-wide key of a call parameter visible in the current scope, or
    // empty. A function's formal parameters alias the caller's arguments.
    std::string call_param_key(const std::string& name)
    {
        Scope& s = scope();
        if (auto a = s.param_aliases.find(name); a != s.param_aliases.end())
            return a->second;
        if (s.call_params.count(name))
            return s.id + ":" + name;
        return {};
    }

    uint32_t call_param_register(const std::string& key, int64_t offset)
    {
        auto [it, inserted] = param_registers_.try_emplace(key + "+" + std::to_string(offset), 0);
        if (inserted)
            it->second = current_->num_regs++;
        return it->second;
    }

    static uint8_t shared_symbol_of(const Kernel& k, const std::string& name)
    {
        for (size_t i = 0; i < k.shared_variables.size() && i < kDynamicSharedSymbol; ++i)
            if (k.shared_variables[i].name == name)
                return static_cast<uint8_t>(i);
        return kNoSharedSymbol;
    }

    uint32_t shared_offset(Kernel& k, const std::string& name, bool& is_dynamic)
    {
        const ModuleShared& s = module_shared_.at(name);
        is_dynamic = s.is_extern;
        if (s.is_extern)
            return 0;
        auto it = shared_offsets_.find(name);
        if (it != shared_offsets_.end())
            return it->second;
        uint32_t offset = static_cast<uint32_t>(align_up(k.static_smem, s.align));
        k.static_smem = offset + static_cast<uint32_t>(s.size);
        shared_offsets_[name] = offset;
        k.shared_variables.push_back({name, offset, static_cast<uint32_t>(s.size)});
        return offset;
    }

    // ---- instructions ----
    void parse_instruction(Kernel& k)
    {
        Instr in;
        in.line = static_cast<uint32_t>(peek().line);
        in.source_line = loc_line_;
        in.source_file = loc_file_;
        if (accept("@")) {
            in.guard_neg = accept("!");
            in.guard = register_index(next());
        }
        const Token& op_tok = next();
        if (op_tok.kind != Kind::Ident)
            kernel_fail("unexpected '" + std::string(op_tok.text) + "'", op_tok.line);
        auto op_it = mnemonics().find(op_tok.text);
        if (op_it == mnemonics().end())
            kernel_fail("unsupported PTX instruction '" + std::string(op_tok.text) + "'", op_tok.line);
        in.op = op_it->second.op;
        in.carry_in = op_it->second.carry_in;
        std::string full_name(op_tok.text);
        std::vector<Type> types;
        while (at(Kind::Directive)) {
            std::string_view m = next().text;
            full_name += m;
            while (at_text(":") && peek(1).text == ":") {  // e.g. .shared::cta, .L2::128B
                next();
                next();
                full_name += "::" + std::string(next().text);
            }
            if (std::string problem = apply_modifier(in, m, types); !problem.empty())
                kernel_fail(problem, op_tok.line);
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
                in.src_type = types[1];
            } else if (in.op == Op::Dp4a || in.op == Op::Dp2a) {  // dp4a.atype.btype
                in.src_type = types[0];
                in.type = types[1];
            } else if (in.op == Op::Vabsdiff4 && types.size() == 3) {  // vabsdiff4.dtype.atype.btype
                in.src_type = types[1];
                in.type = types[2];
            } else {
                in.type = types.back();
            }
        }
        if (in.op == Op::Mul || in.op == Op::Mad)
            in.src_type = in.type;
        if (in.op == Op::Cvta && full_name.find(".to") != std::string::npos)
            in.op = Op::CvtaTo;
        if (in.op == Op::Bar && full_name.find(".warp") != std::string::npos)
            in.op = Op::WarpSync;
        if (in.op == Op::Bar && full_name.find(".arrive") != std::string::npos)
            kernel_fail("unsupported PTX instruction '" + full_name + "'", op_tok.line);
        if (in.op == Op::Bar && full_name.find(".red") != std::string::npos) {
            in.mode = full_name.find(".popc") != std::string::npos  ? BarRedPopc
                      : full_name.find(".and") != std::string::npos ? BarRedAnd
                                                                    : BarRedOr;
        }
        if (in.op == Op::Call) {
            parse_call(k, in);
        } else {
            // Layout: ops[0] first operand, ops[1] its `|p` partner, then the rest.
            bool first = true;
            while (!at_text(";")) {
                if (at(Kind::End))
                    kernel_fail("missing ';'", in.line);
                if (!first)
                    expect(",");
                parse_operand(k, in);
                if (first) {
                    if (accept("|")) {
                        in.has_pair_dest = true;
                        parse_operand(k, in);
                    } else {
                        in.num_ops = 2;
                    }
                    first = false;
                }
            }
            next();
            if (in.num_ops < 2)
                in.num_ops = 2;
        }
        rewrite_call_param_access(in);
        if (in.op == Op::Inline)
            return;  // the callee's body was emitted instead
        if (in.op == Op::Ret && scope().is_function) {
            in.op = Op::Bra;  // return from an inlined function: jump past its body
            in.num_ops = 0;
            scope().returns.push_back(k.code.size());
        } else if (in.op == Op::Bra) {
            scope().branch_fixups.push_back({k.code.size(), pending_label_, in.line});
        }
        k.code.push_back(in);
    }

    void parse_call(Kernel& k, Instr& in)
    {
        // call[.uni] (retval), callee, (param0, param1, ...);
        std::string ret_key;
        if (accept("(")) {
            ret_key = call_param_key_of(next());
            expect(")");
            expect(",");
        }
        const Token& callee_tok = next();
        std::string callee(callee_tok.text);
        std::vector<std::string> arg_keys;
        if (accept(",")) {
            expect("(");
            while (!accept(")")) {
                if (accept(","))
                    continue;
                arg_keys.push_back(call_param_key_of(next()));
            }
        }
        expect(";");
        if (callee == "vprintf" || callee == "__assertfail" || callee == "malloc" || callee == "free") {
            in.mode = callee == "vprintf"  ? CallVprintf
                      : callee == "malloc" ? CallMalloc
                      : callee == "free"   ? CallFree
                                           : CallAssertFail;
            if (!ret_key.empty())
                in.ops[0] = register_operand(call_param_register(ret_key, 0));
            in.num_ops = 2;
            for (const std::string& key : arg_keys)  // __assertfail's 5th (char size) is unused
                if (in.num_ops < 6)
                    in.ops[in.num_ops++] = register_operand(call_param_register(key, 0));
            return;
        }
        auto f = functions_.find(callee);
        if (f == functions_.end() || f->second.body == 0)
            kernel_fail("call to undefined device function '" + callee + "'", callee_tok.line);
        // A function calling itself, directly or through others, cannot be inlined: it is called
        // (a subroutine, emitted once after the kernel's body).
        const bool recursive =
            std::any_of(scopes_.begin(), scopes_.end(), [&](const Scope& sc) { return sc.function == callee; });
        if (recursive) {
            in.op = Op::CallSub;
            in.num_ops = 0;
            in.target = static_cast<int32_t>(pending_calls_.size());
            pending_calls_.push_back({subroutine_for(k, f->second), arg_keys, ret_key});
            return;
        }
        if (scopes_.size() > 16)
            kernel_fail("device function calls nested too deeply", callee_tok.line);
        inline_function(k, f->second, ret_key, arg_keys);
        in.op = Op::Inline;
    }

    // Emits the callee's body in place of the call, in a fresh scope whose
    // formal parameters alias the caller's call parameters.
    void inline_function(Kernel& k, const FunctionDef& f, const std::string& ret_key,
                         const std::vector<std::string>& arg_keys)
    {
        Scope callee{"f" + std::to_string(++inlined_calls_), true, {}, {}, {}, {}, {}, {}, {}, f.name};
        if (!f.return_param.empty())
            callee.param_aliases[f.return_param] = ret_key;
        for (size_t i = 0; i < f.params.size() && i < arg_keys.size(); ++i)
            callee.param_aliases[f.params[i]] = arg_keys[i];
        size_t resume = pos_;
        const uint32_t caller_loc_file = loc_file_, caller_loc_line = loc_line_;
        pos_ = f.body;
        scopes_.push_back(std::move(callee));
        parse_body(k);
        resolve_branches(k);
        for (size_t r : scope().returns)
            k.code[r].target = static_cast<int32_t>(k.code.size());
        scopes_.pop_back();
        pos_ = resume;
        loc_file_ = caller_loc_file;
        loc_line_ = caller_loc_line;
    }

    std::string call_param_key_of(const Token& t)
    {
        std::string key = call_param_key(std::string(t.text));
        if (key.empty())
            kernel_fail("unknown call parameter '" + std::string(t.text) + "'", t.line);
        return key;
    }

    static Operand register_operand(uint32_t reg)
    {
        Operand o;
        o.kind = Operand::Kind::Reg;
        o.reg = reg;
        return o;
    }

    // st.param [param0+0], x and ld.param x, [retval0+0] become moves, since
    // call parameters live in registers.
    void rewrite_call_param_access(Instr& in)
    {
        if (in.space != Space::Param || (in.op != Op::Ld && in.op != Op::St))
            return;
        int addr_index = in.op == Op::Ld ? 2 : 0;
        Operand& a = in.ops[addr_index];
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

    uint32_t register_index(const Token& t)
    {
        auto& regs = scope().regs;
        auto it = regs.find(std::string(t.text));
        if (it == regs.end())
            kernel_fail("unknown register '" + std::string(t.text) + "'", t.line);
        return it->second;
    }

    void parse_operand(Kernel& k, Instr& in)
    {
        if (in.num_ops == 6)
            kernel_fail("too many operands", in.line);
        Operand& o = in.ops[in.num_ops++];
        if (accept("{")) {
            o.kind = Operand::Kind::Vec;
            while (!accept("}")) {
                if (accept(","))
                    continue;
                if (o.count == 4)
                    kernel_fail("vector operand with more than 4 elements", in.line);
                if (at_text("_")) {
                    next();
                    o.vec[o.count++] = Operand::kNoReg;
                } else {
                    o.vec[o.count++] = register_index(next());
                }
            }
            return;
        }
        if (accept("[")) {
            if (in.op == Op::Tex) {  // [texture object, {coordinates}]: ops[2] and ops[3]
                --in.num_ops;
                parse_operand(k, in);
                expect(",");
                parse_operand(k, in);
                expect("]");
                if (in.ops[2].kind != Operand::Kind::Reg || in.ops[3].kind != Operand::Kind::Vec ||
                    in.ops[3].vec[0] == Operand::kNoReg)
                    kernel_fail("tex: expected [texture object register, {coordinate register}]", in.line);
                return;
            }
            o.kind = Operand::Kind::Addr;
            parse_address(k, o);
            expect("]");
            return;
        }
        if (accept("!"))
            kernel_fail("negated predicate operands are not supported", in.line);
        bool negative = accept("-");
        const Token& t = next();
        if (t.kind == Kind::Number) {
            uint64_t bits = 0;
            bool is_float_bits = false;
            if (!parse_number_bits(t.text, bits, is_float_bits))
                kernel_fail("bad number '" + std::string(t.text) + "'", t.line);
            if (negative)
                bits = ~bits + 1;
            o.kind = Operand::Kind::Imm;
            o.imm = static_cast<int64_t>(bits);
            return;
        }
        if (t.kind != Kind::Ident)
            kernel_fail("unexpected operand '" + std::string(t.text) + "'", t.line);
        std::string name(t.text);
        if (name == "_") {
            o.kind = Operand::Kind::Sink;
            return;
        }
        // Registers usually start with '%', but inline asm may declare others
        // (e.g. `.reg .pred __$temp3;`).
        if (name[0] == '%' || scope().regs.count(name)) {
            if (resolve_special_register(name, o))
                return;
            o.kind = Operand::Kind::Reg;
            o.reg = register_index(t);
            return;
        }
        if (in.op == Op::Bra) {
            pending_label_ = name;
            o.kind = Operand::Kind::Imm;
            return;
        }
        resolve_symbol(k, name, o, t.line);
    }

    bool resolve_special_register(const std::string& name, Operand& o)
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
        if (auto s = special_reg_names().find(name); s != special_reg_names().end()) {
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
    void resolve_symbol(Kernel& k, const std::string& name, Operand& o, int line)
    {
        if (std::string key = call_param_key(name); !key.empty()) {
            o.kind = Operand::Kind::Reg;
            o.reg = call_param_register(key, 0);
            return;
        }
        int64_t address = 0;
        if (name == "WARP_SZ") {
            address = 32;
        } else if (auto p = param_offsets_.find(name); p != param_offsets_.end()) {
            address = p->second;
        } else if (auto l = scope().local_offsets.find(name); l != scope().local_offsets.end()) {
            address = l->second;
        } else if (module_shared_.count(name)) {
            bool dynamic = false;
            address = shared_offset(k, name, dynamic);
            o.adds_dynamic_smem_base = dynamic;
            o.shared_symbol = dynamic ? kDynamicSharedSymbol : shared_symbol_of(k, name);
        } else if (const Variable* v = module_.find_variable(name)) {
            address = static_cast<int64_t>(reinterpret_cast<uintptr_t>(v->storage));
        } else {
            kernel_fail("unknown symbol '" + name + "'", line);
        }
        if (o.kind != Operand::Kind::Addr)
            o.kind = Operand::Kind::Imm;
        o.imm += address;
    }

    void parse_address(Kernel& k, Operand& o)
    {
        const Token& t = peek();
        if (t.kind == Kind::Ident) {
            next();
            std::string name(t.text);
            if (name[0] == '%' || scope().regs.count(name)) {
                o.reg = register_index(t);
            } else if (std::string key = call_param_key(name); !key.empty()) {
                int64_t offset = accept("+") ? parse_signed_offset() : 0;
                o.kind = Operand::Kind::Reg;  // rewritten into a move afterwards
                o.reg = call_param_register(key, offset);
                return;
            } else {
                resolve_symbol(k, name, o, t.line);
                o.kind = Operand::Kind::Addr;
            }
            if (accept("+"))
                o.imm += parse_signed_offset();
            else if (at_text("-"))
                o.imm += parse_signed_offset();
        } else {
            o.imm = parse_signed_offset();
        }
    }

    int64_t parse_signed_offset()
    {
        bool negative = accept("-");
        uint64_t v = parse_unsigned();
        return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    }

    void resolve_branches(Kernel& k)
    {
        for (const BranchFixup& f : scope().branch_fixups) {
            auto it = scope().labels.find(f.label);
            if (it == scope().labels.end())
                kernel_fail("unknown label '" + f.label + "'", static_cast<int>(f.line));
            k.code[f.index].target = it->second;
        }
    }

    void finish_kernel(Kernel& k)
    {
        resolve_branches(k);
        // Every path must end in ret/exit; falling off the end behaves like ret.
        Instr ret;
        ret.op = Op::Ret;
        ret.line = k.code.empty() ? 0 : k.code.back().line;
        k.code.push_back(ret);
        emit_subroutines(k);
        uint32_t dynamic_base = static_cast<uint32_t>(align_up(k.static_smem, 16));
        for (Instr& in : k.code)
            for (Operand& o : in.ops)
                if (o.adds_dynamic_smem_base)
                    o.imm += dynamic_base;
        compute_reconvergence_points(k.code);
        attribute_shared_accesses(k);
    }

    // The subroutine of recursive function `f` in this kernel (its body is emitted at the end).
    uint32_t subroutine_for(Kernel& k, const FunctionDef& f)
    {
        auto [it, added] = subroutine_of_.try_emplace(f.name, static_cast<uint32_t>(k.subroutines.size()));
        if (added) {
            Subroutine s;
            s.name = f.name;
            k.subroutines.push_back(s);
        }
        return it->second;
    }

    static std::string subroutine_key(const std::string& function, const std::string& what)
    {
        return "sub:" + function + ":" + what;
    }

    // Each recursive function's body, once, after the kernel's (a body may call more of them), then
    // the registers each call copies: the caller's arguments into the parameters' registers the
    // body reads, at every offset it reads, and the return value's back.
    void emit_subroutines(Kernel& k)
    {
        const size_t resume = pos_;
        const uint32_t kernel_loc_file = loc_file_, kernel_loc_line = loc_line_;
        for (size_t i = 0; i < k.subroutines.size(); ++i) {
            const std::string name = k.subroutines[i].name;
            const FunctionDef& f = functions_.at(name);
            Scope body{"s" + std::to_string(i), true, {}, {}, {}, {}, {}, {}, {}, name};
            if (!f.return_param.empty())
                body.param_aliases[f.return_param] = subroutine_key(name, "result");
            for (size_t p = 0; p < f.params.size(); ++p)
                body.param_aliases[f.params[p]] = subroutine_key(name, std::to_string(p));
            const uint32_t first_register = k.num_regs, first_local = k.local_bytes;
            const auto entry = static_cast<int32_t>(k.code.size());
            pos_ = f.body;
            scopes_.push_back(std::move(body));
            parse_body(k);
            resolve_branches(k);
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
            s.first_register = first_register;
            s.end_register = k.num_regs;
            s.first_local = first_local;
            s.end_local = k.local_bytes;
        }
        pos_ = resume;
        loc_file_ = kernel_loc_file;
        loc_line_ = kernel_loc_line;
        for (const PendingCall& call : pending_calls_) {
            SubroutineCall c;
            c.subroutine = call.subroutine;
            const std::string& name = k.subroutines[call.subroutine].name;
            for (const auto& [key, reg] :
                 std::map<std::string, uint32_t>(param_registers_.begin(), param_registers_.end())) {
                for (size_t p = 0; p < call.arg_keys.size(); ++p) {
                    const std::string prefix = subroutine_key(name, std::to_string(p)) + "+";
                    if (key.rfind(prefix, 0) == 0)
                        c.arguments.emplace_back(
                            call_param_register(call.arg_keys[p], std::stoll(key.substr(prefix.size()))), reg);
                }
                const std::string result = subroutine_key(name, "result") + "+";
                if (!call.ret_key.empty() && key.rfind(result, 0) == 0)
                    c.results.emplace_back(reg,
                                           call_param_register(call.ret_key, std::stoll(key.substr(result.size()))));
            }
            k.subroutine_calls.push_back(std::move(c));
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
        bool is_function;
        std::unordered_map<std::string, uint32_t> regs;
        std::unordered_map<std::string, int32_t> labels;
        std::unordered_map<std::string, uint32_t> local_offsets;
        std::unordered_map<std::string, std::string> param_aliases;
        std::unordered_set<std::string> call_params;
        std::vector<BranchFixup> branch_fixups;
        std::vector<size_t> returns;  // inlined `ret`s, jumping past the body
        std::string function;         // the device function whose body this is, empty for the kernel's
    };
    Scope& scope() { return scopes_.back(); }

    std::vector<Token> tokens_;
    size_t pos_ = 0;
    const VariableAllocator& allocate_;
    Module module_;
    bool pending_extern_ = false;
    Kernel* current_ = nullptr;
    std::string pending_label_;
    std::vector<Scope> scopes_;
    std::unordered_map<std::string, FunctionDef> functions_;
    std::unordered_map<std::string, uint32_t> param_registers_;
    int inlined_calls_ = 0;
    // Recursive functions called in this kernel: their Kernel::subroutines index, and the calls
    // whose registers are known once every body is parsed.
    struct PendingCall {
        uint32_t subroutine;
        std::vector<std::string> arg_keys;
        std::string ret_key;
    };
    std::unordered_map<std::string, uint32_t> subroutine_of_;
    std::vector<PendingCall> pending_calls_;
    std::vector<std::string> source_files_;  // .file names by number
    uint32_t loc_file_ = 0, loc_line_ = 0;   // the last .loc of the body being decoded
    std::unordered_map<std::string, uint32_t> shared_offsets_;
    std::unordered_map<std::string, uint32_t> param_offsets_;
    std::map<std::string, ModuleShared> module_shared_;
};

}  // namespace

Module parse_module(std::string_view ptx, const VariableAllocator& allocate)
{
    Parser parser(ptx, allocate);
    return parser.run();
}

}  // namespace cudasim::ptx
