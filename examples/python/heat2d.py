import numpy as np
import tessera as ts

u = np.zeros((258, 258))  # a 256 x 256 interior and a ghost layer of 1 (cupy.zeros: the same on the GPU)
u[64:128, 96:192] = 1.0  # a hot rectangle
heat = ts.stencil("star", rank=2, radius=1, coefficients=[0.6, 0.1, 0.1, 0.1, 0.1])
field = ts.iterate("automatic", heat, ts.wrap(u, ghost=1), ts.wrap(np.zeros_like(u), ghost=1),
                   steps=2000, boundary="periodic")  # field: the View holding the result, no copies made
print(f"heat after 2000 steps: {field.interior.sum():.6f} (conserved: 6144)")
try:
    import matplotlib.pyplot as plt
    plt.imsave("heat2d.png", np.asarray(field)[1:-1, 1:-1], cmap="inferno")
except ImportError:
    pass  # the picture needs matplotlib
