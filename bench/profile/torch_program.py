"""The PyTorch program of bench/profile/run.sh: torchvision's resnet18 and a transformer encoder layer in
fp16, a forward pass each after one warm-up, on the GPU. An ordinary program: cuBLAS, cuDNN and PyTorch's
own kernels, launched through the runtime (no CUDA Graphs)."""
import sys

import torch
import torchvision

torch.backends.cudnn.benchmark = False
device = torch.device("cuda")
resnet = torchvision.models.resnet18().half().to(device).eval()
layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, batch_first=True).half().to(device).eval()
images = torch.randn(8, 3, 224, 224, device=device, dtype=torch.half)
tokens = torch.randn(8, 128, 512, device=device, dtype=torch.half)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2
with torch.no_grad():
    for _ in range(steps):
        logits = resnet(images)
        encoded = layer(tokens)
torch.cuda.synchronize()
print("resnet18", tuple(logits.shape), "encoder", tuple(encoded.shape))
