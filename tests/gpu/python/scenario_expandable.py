# scenario_leak_in_list under expandable segments: PyTorch maps its memory
# with cuMemCreate/cuMemMap instead of cudaMalloc.
import os
import runpy

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenario_leak_in_list.py"), run_name="__main__")
