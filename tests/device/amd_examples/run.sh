#!/usr/bin/env bash
# Runs AMD's gl_triangle and vk_color_cube (staged by build.sh) on an NVIDIA GPU with OpenGPA's libraries, under a
# carried Xvfb: the device machine has no display, and NVIDIA's GLX renders on the GPU for a window of an X server
# without a GPU of its own (NVIDIA's Vulkan cannot present there: vk_color_cube gets an off-screen swapchain from a
# test-only layer, below). Writes each program's counter CSV and log to $OUT (or STAGE/out).
#
#   tests/device/amd_examples/run.sh STAGE XVFB_DEBS [PROGRAM...]
#
# PROGRAM: gl_triangle, vk_color_cube (default: both), to spend less device time on one of them.
# XVFB_DEBS: Debian 12 packages of Xvfb and what it loads (fetch here with apt-get download: xvfb libxfont2
#   libfontenc1 libpixman-1-0 libunwind8 x11-xkb-utils libxkbfile1 xkb-data libgl1-mesa-dri libglapi-mesa
#   libxshmfence1 libdrm2 libdrm-amdgpu1 libsensors5 libz3-4 libllvm15 libedit2 libxml2 libicu72; on an Ubuntu 24.04
#   image also libfreetype6 libpng16-16 libbrotli1 libdrm-intel1 libdrm-nouveau2 libdrm-radeon1 libpciaccess0
#   libxcb-dri3-0 libxcb-glx0 libxcb-randr0 libx11-xcb1 libxcb-present0 libxcb-sync1 libxcb-xfixes0 libxcb-dri2-0
#   libxcb-shm0: without the last ones NVIDIA's GLX crashed gl_triangle at its start). They are unpacked
#   under /tmp, except xkbcomp (Xvfb runs it from /usr/bin) and Mesa's software DRI driver (Xvfb's GLX loads it from
#   the path it was built with), which go to their own paths only where those are missing.
# The GL loaders (.gl of tests/device's README) must be unpacked into / first.
set -uo pipefail
stage=$(cd "$1" && pwd)
debs=$(cd "$2" && pwd)
shift 2
programs=("$@")
((${#programs[@]})) || programs=(gl_triangle vk_color_cube)
wanted() { [[ " ${programs[*]} " == *" $1 "* ]]; }
out=${OUT:-$stage/out}
mkdir -p "$out"
xroot=/tmp/opengpa-xroot
mkdir -p "$xroot"
for f in "$debs"/*.deb; do dpkg -x "$f" "$xroot"; done
[[ -x /usr/bin/xkbcomp ]] || cp "$xroot/usr/bin/xkbcomp" /usr/bin/
dri=/usr/lib/x86_64-linux-gnu/dri
[[ -e $dri/swrast_dri.so ]] || { mkdir -p "$dri" && cp -a "$xroot$dri/." "$dri/"; }
export LD_LIBRARY_PATH=$xroot/usr/lib/x86_64-linux-gnu:$xroot/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
"$xroot/usr/bin/Xvfb" :99 -screen 0 1024x768x24 -xkbdir "$xroot/usr/share/X11/xkb" -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
sleep 3
export DISPLAY=:99 __GLX_VENDOR_LIBRARY_NAME=nvidia
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -z ${VK_DRIVER_FILES:-} && -e $nvidia_icd ]] && export VK_DRIVER_FILES=$nvidia_icd
bin=$stage/bin
# gl_triangle opens "libGL.so", the development name: point it at the GL loader's libGL.so.1.
gl=$(ldconfig -p | awk '/libGL.so.1 .*x86-64/ {print $NF; exit}')
[[ -n $gl ]] && ln -sfn "$gl" "$bin/libGL.so"
export LD_LIBRARY_PATH=$bin:$LD_LIBRARY_PATH
status=0
cd "$bin"
run() {  # name, seconds, program, arguments...
  local name=$1 seconds=$2
  shift 2
  echo "== $name: $*"
  # AMD's samples write --datafile and --logfile into the executable's folder (they append the name to its path).
  timeout -s TERM "$seconds" "$@" --datafile "$name.csv" --logfile "$name.log" >"$out/$name.out" 2>&1
  local rc=$?
  mv -f "$name.csv" "$name.log" "$out/" 2>/dev/null
  echo "rc=$rc"
  tail -n 5 "$out/$name.out"
  return $rc
}
# gl_triangle: every derived counter (GL's and NVIDIA's graphics catalog: several passes, one frame each), then the
# sampler's own thread counts beside the pipeline statistics and the occlusion count.
if wanted gl_triangle; then
  run gl_triangle_all 120 ./gl_triangle --numberofframes 2 || status=1
  printf '%s\n' GPUTime VSVerticesIn PSPixelsIn SamplesPassed VSWarps PSWarps PSQuads \
    sm__threads_launched_shader_vs.sum sm__threads_launched_shader_ps_killmask_off.sum >"$out/gl_counters.txt"
  run gl_triangle_hw 120 ./gl_triangle --numberofframes 2 --includehwcounters --counterfile "$out/gl_counters.txt" ||
    status=1
fi
# vk_color_cube (the program binary unchanged) draws to an XCB window; NVIDIA's Vulkan driver cannot present to Xvfb
# (vkGetPhysicalDeviceSurfacePresentModesKHR fails, and the program stopped before any GPA call). So it runs through
# VK_LAYER_OPENGPA_headless_present (tests/device/amd_examples/headless_present, a test-only layer that build.sh
# stages): the layer answers the surface queries and makes the swapchain of ordinary images the program renders into,
# below VK_LAYER_OPENGPA_gpa_interface (the first layer named is nearest the program). The layer writes presented
# frame 1 (drawn as the profiled frame 0, without GPA's commands) to a PPM that check_amd_examples.py counts pixels in.
# vk_color_cube records every pass's command buffers before submitting any, which the sampler cannot follow across a
# change of configuration (docs/graphics-counters.md), so each run asks for counters of one sampler pass (GPUTime's
# timing pass, which has no sampler configuration, may be recorded with it); it exits
# once its profile is written (--exitafterprofile).
if wanted vk_color_cube; then
  export VK_ADD_LAYER_PATH=$bin VK_INSTANCE_LAYERS=VK_LAYER_OPENGPA_gpa_interface:VK_LAYER_OPENGPA_headless_present
  export OPENGPA_HEADLESS_PRESENT_DUMP_FRAME=1
  printf '%s\n' GPUTime PSPixelsIn PSWarps >"$out/vk_ps.txt"
  printf '%s\n' GPUTime VSVerticesIn VSWarps >"$out/vk_vs.txt"
  OPENGPA_HEADLESS_PRESENT_DUMP=$out/vk_color_cube_ps.ppm run vk_color_cube_ps 60 ./vk_color_cube --numberofframes 1 \
    --exitafterprofile --counterfile "$out/vk_ps.txt" || status=1
  OPENGPA_HEADLESS_PRESENT_DUMP=$out/vk_color_cube_vs.ppm run vk_color_cube_vs 60 ./vk_color_cube --numberofframes 1 \
    --exitafterprofile --counterfile "$out/vk_vs.txt" || status=1
fi
kill "$xvfb" 2>/dev/null
python3 "$stage/check_amd_examples.py" "$out" "${programs[@]}" || status=1
echo "amd_examples: results in $out (status $status)"
exit $status
