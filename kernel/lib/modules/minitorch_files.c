/* minitorch_files.c — MiniTorch's files as modules: the kernel's part of each
 * (minitorch.tensor_data, tensor_ops, fast_ops, ...: the names of minitorch that MiniTorch
 * defines in that file, and the type aliases and protocols its other files import from it),
 * and what the files a student's cells wrote (lang/packages.c) give minitorch through
 * MiniTorch's star imports. */
#include "lib/modules/module.h"

#include "lang/classes.h"
#include "lang/packages.h"

#include <string.h>

/* ---- names the files import from each other for their annotations ----------------------- */

/* form[key] of a typing form (an engine object that takes subscripts), as a new value. */
static int subscript(struct dsl_interp *in, const struct module *m, const char *form,
                     struct dsl_value key, struct dsl_value *out)
{
    struct dsl_value mod, f;
    if (mod_module_value(in, m, &mod) != 0) return -1;
    int r = dsl_getattr(in, mod, form, &f);
    dsl_value_release(mod);
    if (r != 0) return -1;
    r = f.kind == DSL_OBJECT && f.as.obj->cls->getitem
            ? f.as.obj->cls->getitem(in, f, key, out)
            : dsl_raise(in, "TypeError", "'%s' is not subscriptable", form);
    dsl_value_release(f);
    return r;
}

static int ndarray_of(struct dsl_interp *in, int (*dtype)(struct dsl_interp *, struct dsl_value *),
                      struct dsl_value *out)
{
    struct dsl_value d;
    if (dtype(in, &d) != 0) return -1;
    int r = subscript(in, &mod_numpy_typing, "NDArray", d, out);
    dsl_value_release(d);
    return r;
}

/* Storage: NDArray[np.float64]; Index, OutIndex, Shape, Strides: NDArray[np.int32] */
static int v_storage(struct dsl_interp *in, struct dsl_value *out)
{
    return ndarray_of(in, mod_dtype_float64, out);
}
static int v_index(struct dsl_interp *in, struct dsl_value *out)
{
    return ndarray_of(in, mod_dtype_int32, out);
}

/* UserIndex, UserShape, UserStrides: Sequence[int] */
static int v_user_index(struct dsl_interp *in, struct dsl_value *out)
{
    return subscript(in, &mod_typing, "Sequence", dsl_builtin_type(dsl_builtin_find("int")), out);
}

/* tensor_ops.py's MapProto, a Protocol the ops' map functions follow: here a class to name */
static const struct dsl_builtin map_proto_rows[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};
static int v_map_proto(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    struct dsl_class *c = dsl_library_class(
        "MapProto",
        "MiniTorch's protocol of a map function: fn(x, out=None) -> Tensor (for annotations).",
        dsl_none(), map_proto_rows);
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
    return 0;
}

/* tensor.py's Tensor: the kernel's tensors */
static int v_tensor_class(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = dsl_builtin_type(dsl_builtin_find("tensor"));
    return 0;
}

/* ---- minitorch's files as the kernel has them ------------------------------------------- */

#define MT_FILE(var, file, doc_, ...)                                                              \
    static const struct member var##_members[] = {__VA_ARGS__};                                    \
    const struct module var = {                                                                    \
        .cls = MODULE_CLASS("module: " doc_ " A cell that starts with %%minitorch_file " file      \
                            " replaces it with yours."),                                           \
        .name = "minitorch." file,                                                                 \
        .members = MEMBERS(var##_members),                                                         \
    }

MT_FILE(mod_mt_autodiff, "autodiff", "what the kernel has of MiniTorch's autodiff.py.",
        FROM("central_difference", mod_minitorch));
MT_FILE(mod_mt_cuda_ops, "cuda_ops", "the kernel's ops on the GPU, as MiniTorch's cuda_ops.py.",
        FROM("CudaOps", mod_minitorch));
MT_FILE(mod_mt_fast_ops, "fast_ops", "the kernel's fast ops, as MiniTorch's fast_ops.py.",
        FROM("FastOps", mod_minitorch));
MT_FILE(mod_mt_module, "module", "MiniTorch's module.py: Module and Parameter.",
        FROM("Module", mod_minitorch), FROM("Parameter", mod_minitorch));
MT_FILE(mod_mt_optim, "optim", "MiniTorch's optim.py: Optimizer and SGD.",
        FROM("Optimizer", mod_minitorch), FROM("SGD", mod_minitorch));
MT_FILE(mod_mt_tensor, "tensor", "MiniTorch's tensor.py: Tensor, the kernel's tensors.",
        VALUE("Tensor", "minitorch.tensor.Tensor", v_tensor_class,
              "The class of the kernel's tensors."));
MT_FILE(mod_mt_tensor_data, "tensor_data", "MiniTorch's tensor_data.py, the kernel's.",
        VALUE("Index", "minitorch.tensor_data.Index", v_index, "NDArray[np.int32]."),
        FROM("IndexingError", mod_minitorch), FROM("MAX_DIMS", mod_minitorch),
        VALUE("OutIndex", "minitorch.tensor_data.OutIndex", v_index, "NDArray[np.int32]."),
        VALUE("Shape", "minitorch.tensor_data.Shape", v_index, "NDArray[np.int32]."),
        VALUE("Storage", "minitorch.tensor_data.Storage", v_storage, "NDArray[np.float64]."),
        VALUE("Strides", "minitorch.tensor_data.Strides", v_index, "NDArray[np.int32]."),
        FROM("TensorData", mod_minitorch),
        VALUE("UserIndex", "minitorch.tensor_data.UserIndex", v_user_index, "Sequence[int]."),
        VALUE("UserShape", "minitorch.tensor_data.UserShape", v_user_index, "Sequence[int]."),
        VALUE("UserStrides", "minitorch.tensor_data.UserStrides", v_user_index, "Sequence[int]."),
        FROM("broadcast_index", mod_minitorch), FROM("index_to_position", mod_minitorch),
        FROM("shape_broadcast", mod_minitorch), FROM("strides_from_shape", mod_minitorch),
        FROM("to_index", mod_minitorch));
MT_FILE(mod_mt_tensor_functions, "tensor_functions",
        "what the kernel has of MiniTorch's tensor_functions.py: the ways to make a tensor, "
        "grad_check.",
        FROM("grad_check", mod_minitorch), FROM("ones", mod_minitorch), FROM("rand", mod_minitorch),
        FROM("tensor", mod_minitorch), FROM("zeros", mod_minitorch));
MT_FILE(mod_mt_testing, "testing", "MiniTorch's testing.py: MathTest and MathTestVariable.",
        FROM("MathTest", mod_minitorch), FROM("MathTestVariable", mod_minitorch));
MT_FILE(mod_mt_tensor_ops, "tensor_ops", "MiniTorch's tensor_ops.py: the ops and backends.",
        VALUE("MapProto", "minitorch.tensor_ops.MapProto", v_map_proto,
              "MiniTorch's protocol of a map function (for annotations)."),
        FROM("SimpleBackend", mod_minitorch), FROM("SimpleOps", mod_minitorch),
        FROM("TensorBackend", mod_minitorch), FROM("TensorOps", mod_minitorch));

/* ---- minitorch: the student's files ---------------------------------------------------- */

/* MiniTorch's __init__ star-imports its files in an order in which a later file's name
 * replaces an earlier's (scalar_functions' Mul over tensor_functions'): the last first */
static const char *const star_imported[] = {
    "minitorch.cuda_ops",    "minitorch.fast_ops",
    "minitorch.tensor_ops",  "minitorch.optim",
    "minitorch.testing",     "minitorch.datasets",
    "minitorch.tensor",      "minitorch.autodiff",
    "minitorch.module",      "minitorch.scalar_functions",
    "minitorch.scalar",      "minitorch.tensor_functions",
    "minitorch.tensor_data", "minitorch.fast_conv",
    "minitorch.nn",
};
#define NSTAR (sizeof star_imported / sizeof star_imported[0])

struct dsl_value *mod_minitorch_file_export(struct dsl_interp *in, const char *name)
{
    for (size_t i = 0; i < NSTAR; i++) {
        struct dsl_value *file = dsl_package_find(in->session, star_imported[i]);
        struct dsl_value *v = file ? dsl_package_export(*file, name) : NULL;
        if (v) return v;
    }
    return NULL;
}

size_t mod_minitorch_file_names(struct dsl_session *s, const char **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < NSTAR; i++) {
        struct dsl_value *file = dsl_package_find(s, star_imported[i]);
        const struct dsl_attrs *g = file ? &file->as.inst->attrs : NULL;
        for (size_t k = 0; g && k < g->len; k++) {
            if (!dsl_package_export(*file, g->items[k].name)) continue;
            if (out && n < cap) out[n] = g->items[k].name;
            n++;
        }
    }
    return n;
}
