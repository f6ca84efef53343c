"""On the real GPU: what torch and Triton answer about the device, and which configs fla's autotuners keep."""
import json, sys, time, os
import torch, triton
out = {}
p = torch.cuda.get_device_properties(0)
out["torch_props"] = {k: (getattr(p, k) if isinstance(getattr(p, k), (int, float, str, bool)) else str(getattr(p, k)))
                      for k in dir(p) if not k.startswith("_")}
out["name"] = torch.cuda.get_device_name()
out["cap"] = torch.cuda.get_device_capability()
out["count"] = torch.cuda.device_count()
out["version_hip"] = torch.version.hip
from triton.runtime import driver
out["triton_props"] = driver.active.utils.get_device_properties(torch.cuda.current_device())
t = driver.active.get_current_target()
out["target"] = [t.backend, t.arch, t.warp_size]
json.dump(out, open(os.environ["OUT"] + "/device_truth.json", "w"), indent=1, default=str)

# fla: count compiles and autotune decisions
compiles = []
def listener(**kw):
    src = kw.get("src")
    compiles.append((getattr(src, "name", None) or str(getattr(getattr(src, "fn", None), "__name__", "?")), kw.get("cache_hit")))
triton.knobs.compilation.listener = listener
from triton.runtime.autotuner import Autotuner
decisions = []
orig = Autotuner.prune_configs
def prune(self, kwargs, *a, **k):
    r = orig(self, kwargs, *a, **k)
    decisions.append({"fn": self.base_fn.__name__, "configs": len(self.configs), "after_prune": len(r)})
    return r
Autotuner.prune_configs = prune
res = {}
for prog in sys.argv[1:]:
    compiles.clear(); decisions.clear()
    t0 = time.time()
    import runpy
    try:
        runpy.run_path(prog, run_name="__main__")
        torch.cuda.synchronize()
        err = None
    except Exception as e:
        err = repr(e)[:500]
    res[prog] = {"seconds": time.time() - t0, "compiles": len(compiles), "decisions": list(decisions), "error": err,
                 "kernels": sorted({c[0] for c in compiles})}
json.dump(res, open(os.environ["OUT"] + "/fla_truth.json", "w"), indent=1, default=str)
print(json.dumps(res, indent=1, default=str)[:6000])
