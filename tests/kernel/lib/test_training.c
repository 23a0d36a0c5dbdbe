/* test_training.c — the training objects in the language (kernel/lib/training.c).
 *
 * dataset(): the object's summary,
 * attributes (sharing the engine's tensors), type and help, errors that leave the session as it
 * was, seeding as random.seed does, and the display: the summary as text/plain beside a scatter
 * plot drawn for %plot_renderer. The points themselves are checked against Python's random in
 * tests/differential/test_datasets.py.
 *
 * Models and SGD: mlp's forward is exactly the composition written out with its parameters,
 * parameters() are the model's own tensors in MiniTorch's order, the weights are the session
 * generator's draws minus 0.5, a step moves a parameter by -rate * grad, zero_grad clears, and
 * bad arguments are clear errors that keep the session. */
#include "test.h"

#include "kernel/dsl_helpers.h"
#include "lang/interp.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static void test_summary_and_attributes(void)
{
    /* the summary's counts add up to n and match the labels' sum */
    CHECK_STR(eval1("ds = dataset(\"simple\", 20, seed=3)\n[ds.n, ds.name, ds.X.shape, ds.y.shape, "
                    "int(ds.y.sum()[0]) + int((1 - ds.y).sum()[0]), type(ds)]"),
              "[20, 'simple', (20, 2), (20,), 20, <class 'dataset'>]");
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "ds = dataset(\"xor\", seed=1)\nones = int(ds.y.sum()[0])\nds");
    CHECK_INT(o.rc, 0);
    int ones = atoi(run_cell(s, "ones").result);
    CHECK(ones > 0 && ones < 50);
    char want[160];
    snprintf(want, sizeof want, "dataset('xor', n=50): 50 points, %d of class 1, %d of class 0",
             ones, 50 - ones);
    CHECK_STR(o.result, want);
    /* labels follow the rule on the points: simple is x1 < 0.5 */
    CHECK_STR(run_cell(s, "d = dataset(\"simple\", 200)\nok = 0\nfor i in range(200):\n"
                          "    ok += (d.X[i, 0] < 0.5) == (d.y[i] == 1)\nok")
                  .result,
              "200");
    /* ds.X is the dataset's own tensor, not a copy */
    CHECK_STR(run_cell(s, "a = ds.X\na[0, 0] = 7\nds.X[0, 0]").result, "7.0");
    /* spiral: 2*(n//2) points, no draws */
    CHECK_STR(run_cell(s, "dataset(\"Spiral\", 7).n").result, "6");
    /* help describes the object */
    struct sink sk = {0};
    run_cell_with(s, "help(ds)", &sk);
    CHECK(strstr(sk.log, "ds.X is the (n, 2) tensor") != NULL);
    dsl_session_free(s);
}

static void test_seed_is_random_seed(void)
{
    /* seed=s is seed(s) then the draws: rand() afterwards continues the same sequence */
    CHECK_STR(eval1("d = dataset(\"diag\", 5, seed=11)\nr = rand(1)[0]\nseed(11)\n"
                    "x = rand(11)\n[d.X[4, 1] == x[8], r == x[9]]"),
              "[False, False]"); /* one draw off: the next check is no tautology */
    CHECK_STR(eval1("d = dataset(\"diag\", 5, seed=11)\nr = rand(1)[0]\nseed(11)\n"
                    "x = rand(11)\n[d.X[4, 1] == x[9], r == x[10]]"),
              "[True, True]");
    /* without seed, the session's generator goes on: two sets differ */
    CHECK_STR(eval1("seed(0)\na = dataset(\"xor\")\nb = dataset(\"xor\")\na.X[0, 0] == b.X[0, 0]"),
              "False");
    CHECK_STR(eval1("a = dataset(\"xor\", seed=-4)\nb = dataset(\"xor\", seed=4)\n"
                    "a.X[3, 1] == b.X[3, 1]"),
              "True"); /* random.seed(-4) is random.seed(4) */
}

static void test_errors(void)
{
    struct dsl_session *s = dsl_session_new();
    run_cell(s, "keep = 5");
    struct outcome o = run_cell(s, "dataset(\"moons\")");
    CHECK_STR(o.ename, "ValueError");
    CHECK(strstr(o.evalue, "simple, diag, split, xor, circle, spiral") != NULL);
    CHECK_STR(run_cell(s, "dataset(\"xor\", n=0)").ename, "ValueError");
    CHECK_STR(run_cell(s, "dataset(\"spiral\", 1)").ename, "ValueError");
    CHECK_STR(run_cell(s, "dataset(3)").ename, "TypeError");
    CHECK_STR(run_cell(s, "dataset(\"xor\", 2.5)").ename, "TypeError");
    CHECK_STR(run_cell(s, "dataset(\"xor\", seed=\"a\")").ename, "TypeError");
    o = run_cell(s, "dataset(\"xor\").Z");
    CHECK_STR(o.ename, "AttributeError");
    CHECK(strstr(o.evalue, "X, y, n, name and batches()") != NULL);
    CHECK_STR(run_cell(s, "keep").result, "5");
    dsl_session_free(s);
}

static json_t *result_of(struct dsl_session *s, const char *code)
{
    struct sink k = {0};
    struct dsl_output out = sink_output(&k);
    json_t *result = NULL;
    struct dsl_error err = {0};
    if (dsl_execute(s, code, &out, &result, &err) != 0) dsl_error_clear(&err);
    return result;
}

static void test_display(void)
{
    struct dsl_session *s = dsl_session_new();
    json_t *r = result_of(s, "dataset(\"split\", 30, seed=2)");
    CHECK(r != NULL);
    const char *text = json_string_value(json_object_get(r, "text/plain"));
    CHECK(text && strncmp(text, "dataset('split', n=30): 30 points, ", 35) == 0);
    json_t *spec = json_object_get(r, "application/vnd.vegalite.v5+json");
    CHECK(spec != NULL);
    CHECK_INT(json_array_size(json_object_get(json_object_get(spec, "data"), "values")), 30);
    const char *svg = json_string_value(json_object_get(r, "image/svg+xml"));
    CHECK(svg && strstr(svg, "#ea8484") && strstr(svg, "#69bac9"));
    CHECK(json_object_get(r, "text/html") == NULL); /* never HTML beside a chart */
    /* deterministic: the same seed gives the same bundle */
    json_t *again = result_of(s, "dataset(\"split\", 30, seed=2)");
    CHECK(json_equal(r, again));
    json_decref(again);
    json_decref(r);
    /* a big set plots its first 5000 points and says so */
    r = result_of(s, "dataset(\"xor\", 20000)");
    json_t *big = json_object_get(r, "application/vnd.vegalite.v5+json");
    CHECK_INT(json_array_size(json_object_get(json_object_get(big, "data"), "values")), 5000);
    CHECK_STR(json_string_value(json_object_get(big, "title")),
              "xor, the first 5000 of 20000 points");
    json_decref(r);
    /* %plot_renderer decides the chart's form */
    r = result_of(s, "%plot_renderer svg\ndataset(\"xor\", 10)");
    CHECK(r && json_object_get(r, "image/svg+xml") &&
          !json_object_get(r, "application/vnd.vegalite.v5+json"));
    json_decref(r);
    r = result_of(s, "%plot_renderer html\ndataset(\"xor\", 10)");
    const char *html = json_string_value(json_object_get(r, "text/html"));
    CHECK(html && strstr(html, "vega-embed") != NULL);
    CHECK(json_is_string(json_object_get(r, "text/plain")));
    json_decref(r);
    dsl_session_free(s);
}

static void test_models(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "seed(7)\nm = mlp(2, 5, 1)\nps = m.parameters()\n"
                                   "[len(ps), ps[0].shape, ps[1].shape, ps[2].shape, ps[3].shape, "
                                   "ps[4].shape, ps[5].shape, type(m), m.layers]");
    CHECK_STR(o.result, "[6, (2, 5), (5,), (5, 5), (5,), (5, 1), (1,), <class 'model'>, 3]");
    /* weights: rand - 0.5 from the generator, layer by layer; biases 0.1 */
    CHECK_STR(run_cell(s, "seed(7)\nr = rand(2, 5) - 0.5\nr2 = rand(5, 5) - 0.5\n"
                          "[(r == ps[0]).sum()[0], (r2 == ps[2]).sum()[0], ps[3][4]]")
                  .result,
              "[10.0, 25.0, 0.1]");
    /* forward = the composition written out */
    CHECK_STR(run_cell(s, "x = rand(7, 2)\nh = (x @ ps[0] + ps[1]).relu()\n"
                          "h = (h @ ps[2] + ps[3]).relu()\nref = (h @ ps[4] + ps[5]).sigmoid()\n"
                          "(m(x) == ref).sum()[0]")
                  .result,
              "7.0");
    /* parameters() are the model's tensors: changing one changes the model's output */
    CHECK_STR(run_cell(s, "y0 = m(x)[0, 0]\nps[5][0] = ps[5][0] + 100\ny1 = m(x)[0, 0]\n"
                          "[y0 < 1, y1]")
                  .result,
              "[True, 1.0]");
    /* sgd: p -= rate * grad, in place; zero_grad forgets */
    CHECK_STR(run_cell(s, "opt = sgd(ps, rate=0.25)\nloss = m(x).sum()\nloss.backward()\n"
                          "w = ps[0][1, 2]\ng = ps[0].grad[1, 2]\nopt.step()\n"
                          "[abs(ps[0][1, 2] - (w - 0.25 * g)) < 1e-6, opt.rate, "
                          "ps[0].requires_grad()]")
                  .result,
              "[True, 0.25, True]");
    CHECK_STR(run_cell(s, "opt.zero_grad()\n[ps[0].grad, ps[5].grad]").result, "[None, None]");
    CHECK_STR(run_cell(s, "opt").result, "sgd(6 parameters, rate=0.25)");
    CHECK_STR(run_cell(s, "linear(3, 2)").result, "linear(3, 2): x @ weight + bias, 8 parameters");
    CHECK_STR(run_cell(s, "linear(3, 2)(ones(4, 3)).shape").result, "(4, 2)");
    /* errors */
    CHECK_STR(run_cell(s, "m(ones(2, 3))").ename, "ShapeError");
    CHECK_STR(run_cell(s, "m([1, 2])").ename, "TypeError");
    CHECK_STR(run_cell(s, "mlp(2, 0, 1)").ename, "ValueError");
    CHECK_STR(run_cell(s, "mlp(2, 1.5, 1)").ename, "TypeError");
    CHECK_STR(run_cell(s, "sgd([ones(2)], 0.1)").ename, "ValueError"); /* no grad */
    CHECK_STR(run_cell(s, "sgd([1], 0.1)").ename, "TypeError");
    CHECK_STR(run_cell(s, "sgd(ps, \"fast\")").ename, "TypeError");
    CHECK_STR(run_cell(s, "opt.lr").ename, "AttributeError");
    CHECK_STR(run_cell(s, "opt(1)").ename, "TypeError"); /* not callable */
    CHECK_STR(run_cell(s, "type(opt)").result, "<class 'sgd'>");
    dsl_session_free(s);
}

/* train(): bad arguments are clear errors that leave the model as it was; backend= runs the
 * steps elsewhere on the same storage; batches() draws what train() draws. */
static void test_train_arguments(void)
{
    struct dsl_session *s = dsl_session_new();
    run_cell(s, "%backend simple\nds = dataset(\"simple\", 20, seed=1)\nm = mlp(2, 4, 1)\n"
                "w = m.parameters()[0].tolist()");
    struct outcome o = run_cell(s, "train(m, m)");
    CHECK_STR(o.ename, "TypeError");
    CHECK(strstr(o.evalue, "data must be a dataset") != NULL);
    CHECK_STR(run_cell(s, "train(ds, ds)").ename, "TypeError");
    CHECK_STR(run_cell(s, "train(m, ds, batch=0)").ename, "ValueError");
    CHECK_STR(run_cell(s, "train(m, ds, epochs=-1)").ename, "ValueError");
    CHECK_STR(run_cell(s, "train(m, ds, rate=\"fast\")").ename, "TypeError");
    CHECK_STR(run_cell(s, "train(m, ds, log=-2)").ename, "ValueError");
    o = run_cell(s, "train(m, ds, backend=\"gpu\")");
    CHECK_STR(o.ename, "ValueError");
    CHECK(strstr(o.evalue, "gpu") != NULL);
    CHECK_STR(run_cell(s, "m.parameters()[0].tolist() == w").result, "True");
    /* on fast (the fused step) while the model lives on simple: the model's own tensors move,
     * and they get the last gradients */
    static struct sink k; /* 64 KiB: not on the stack */
    o = run_cell_with(s, "train(m, ds, epochs=3, backend=\"fast\", log=0)", &k);
    CHECK_INT(o.rc, 0);
    CHECK(strstr(k.log, "Trained 3 of 3 epochs on fast (fused step)") != NULL);
    CHECK_STR(run_cell(s, "[m.parameters()[0].tolist() == w, m.parameters()[0].backend, "
                          "m.parameters()[0].grad.shape]")
                  .result,
              "[False, 'simple', (2, 4)]");
    /* batches(): 20 points in batches of 7: 7, 7, 6, every point once */
    CHECK_STR(run_cell(s, "b = ds.batches(7)\n[len(b), b[0][0].shape, b[2][1].shape, "
                          "(b[0][1].sum() + b[1][1].sum() + b[2][1].sum())[0] == ds.y.sum()[0]]")
                  .result,
              "[3, (7, 2), (6,), True]");
    CHECK_STR(run_cell(s, "ds.batches(0)").ename, "ValueError");
    dsl_session_free(s);
}

/* An interrupt that lands in the live boundary chart's forward pass (a run longer than a second
 * draws one: the model on the 25 x 25 grid) stops the training as one between batches does: the
 * summary line, the charts, then KeyboardInterrupt. The diagnostics hook raises the flag at the
 * chart's first product, so the test does not depend on timing. */
static int cancels;
static void cancel_in_chart(void *user, const struct mt_diag *d)
{
    (void)user;
    if (cancels == 0 && strcmp(d->op, "matmul") == 0 && d->in_shape[0][0] == 625) {
        cancels++;
        mt_cancel_request();
    }
}

static void test_interrupt_in_the_live_chart(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "%backend simple\nds = dataset(\"split\", 50, seed=2)\n"
                          "m = mlp(2, 100, 1)")
                  .rc,
              0);
    mt_ctx_set_diag(s->ctx, cancel_in_chart, NULL);
    static struct sink k;
    memset(&k, 0, sizeof k);
    struct outcome o = run_cell_with(s, "train(m, ds, epochs=100000, log=0)", &k);
    mt_ctx_set_diag(s->ctx, NULL, NULL);
    mt_cancel_clear();
    CHECK_INT(cancels, 1);
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK(strstr(k.log, "Interrupted after ") != NULL);
    CHECK(strstr(k.log, " on split: decision boundary, loss and time per epoch>") != NULL);
    dsl_session_free(s);
}

static int count_of(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

/* A loss that turns nan or inf says so on stderr (epoch, the loss before, a smaller rate), and
 * on_nan chooses: "stop" (the default) ends the run with the parameters as after the last
 * finite epoch, "continue" trains on and says the parameters hold nan. The fused step (fast) and
 * the autodiff ops (simple) alike; the cuda path is in tests/scripts/cuda/standin.mt. */
static void test_nan_loss(void)
{
    static const char *const backends[] = {"fast", "simple"};
    static struct sink k;
    for (size_t b = 0; b < 2; b++) {
        struct dsl_session *s = dsl_session_new();
        char code[512];
        /* the reference: one epoch of one step at rate 5 (finite); dataset(seed=1) seeds the
         * generator, so the model drawn next is the same each time */
        snprintf(code, sizeof code,
                 "%%backend %s\ndef snap(m):\n    out = []\n    for p in m.parameters():\n"
                 "        out.append(p.tolist())\n    return out\n"
                 "ds = dataset(\"split\", 50, seed=1)\nm = mlp(2, 100, 1)\n"
                 "train(m, ds, rate=5.0, epochs=1, batch=50, log=0)\nafter0 = snap(m)",
                 backends[b]);
        CHECK_INT(run_cell(s, code).rc, 0);
        /* the same run for 30 epochs: epoch 1's loss is inf, the run stops, the model is as
         * after epoch 0 */
        memset(&k, 0, sizeof k);
        struct outcome o = run_cell_with(s,
                                         "ds = dataset(\"split\", 50, seed=1)\nm = mlp(2, 100, 1)\n"
                                         "train(m, ds, rate=5.0, epochs=30, batch=50, log=1)",
                                         &k);
        CHECK_INT(o.rc, 0);
        CHECK(strstr(k.log, "stdout:Epoch 0  loss 63.1") != NULL);
        CHECK(strstr(k.log, "stderr:Epoch 1: the loss became inf (it was 63.1") != NULL);
        CHECK(strstr(k.log,
                     "try a smaller rate, e.g. train(..., rate=0.5). Training stopped, "
                     "and the parameters are back to their values before this epoch") != NULL);
        CHECK(strstr(k.log, "stdout:Stopped after 1 of 30 epochs on ") != NULL);
        CHECK(strstr(k.log, "Epoch 2 ") == NULL);
        CHECK(strstr(k.log, "parameters now hold nan") == NULL);
        CHECK_STR(run_cell(s, "snap(m) == after0").result, "True");
        /* nan from epoch 0 (ten steps an epoch): nothing kept, the model as it was made */
        memset(&k, 0, sizeof k);
        o = run_cell_with(s,
                          "w = snap(m)\n"
                          "train(m, ds, rate=5.0, epochs=30, log=10)",
                          &k);
        CHECK_INT(o.rc, 0);
        CHECK(strstr(k.log, "stderr:Epoch 0: the loss is nan from the first epoch on. ") != NULL);
        CHECK(strstr(k.log, "stdout:Stopped after 0 of 30 epochs on ") != NULL);
        CHECK_STR(run_cell(s, "snap(m) == w").result, "True");
        /* on_nan="continue": every epoch runs, said once, and the nan parameters are named */
        memset(&k, 0, sizeof k);
        o = run_cell_with(s, "train(m, ds, rate=5.0, epochs=3, log=1, on_nan=\"continue\")", &k);
        CHECK_INT(o.rc, 0);
        CHECK(strstr(k.log, "stderr:Epoch 0: the loss is nan from the first epoch on. ") != NULL);
        CHECK(strstr(k.log, "Training goes on (on_nan=\"continue\").") != NULL);
        CHECK(strstr(k.log, "stdout:Epoch 2  loss nan") != NULL);
        CHECK(strstr(k.log, "stdout:Trained 3 of 3 epochs on ") != NULL);
        CHECK(strstr(k.log, "stderr:The model's parameters now hold nan or inf") != NULL);
        CHECK_INT(count_of(k.log, "the loss is nan"), 1);
        CHECK_STR(run_cell(s, "snap(m) == w").result, "False");
        o = run_cell(s, "train(m, ds, on_nan=\"ignore\")");
        CHECK_STR(o.ename, "ValueError");
        CHECK(strstr(o.evalue, "on_nan must be \"stop\" or \"continue\"") != NULL);
        dsl_session_free(s);
    }
}

int main(void)
{
    RUN_TEST(test_summary_and_attributes);
    RUN_TEST(test_seed_is_random_seed);
    RUN_TEST(test_errors);
    RUN_TEST(test_display);
    RUN_TEST(test_models);
    RUN_TEST(test_train_arguments);
    RUN_TEST(test_interrupt_in_the_live_chart);
    RUN_TEST(test_nan_loss);
    return TEST_SUMMARY();
}
