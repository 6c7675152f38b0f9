"""The PyTorch program of bench/profile/run.sh: torchvision's resnet18 and a transformer encoder layer in
fp16, a forward pass each after one warm-up, on the GPU. An ordinary program: cuBLAS, cuDNN and PyTorch's
own kernels, launched through the runtime (no CUDA Graphs).
  torch_program.py [STEPS] [BATCH]   (default 2 steps, batch 8; prints the steps' own time on stderr)"""
import sys
import time

import torch
import torchvision

torch.backends.cudnn.benchmark = False
device = torch.device("cuda")
resnet = torchvision.models.resnet18().half().to(device).eval()
layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, batch_first=True).half().to(device).eval()
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 8
images = torch.randn(batch, 3, 224, 224, device=device, dtype=torch.half)
tokens = torch.randn(batch, 128, 512, device=device, dtype=torch.half)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2
torch.cuda.synchronize()
start = time.perf_counter()
with torch.no_grad():
    for _ in range(steps):
        logits = resnet(images)
        encoded = layer(tokens)
torch.cuda.synchronize()
print(f"steps took {time.perf_counter() - start:.3f} s", file=sys.stderr)
print("resnet18", tuple(logits.shape), "encoder", tuple(encoded.shape))
