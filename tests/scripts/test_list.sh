#!/usr/bin/env bash
# `gpudoctor list --json` on every captured machine in tests/fixtures/,
# with the facts each one is there to prove (see each fixture's README).
set -u
: "${GPUDOCTOR:?built binary}" "${GD_SRCDIR:?source dir}"
command -v jq >/dev/null || { echo "skipped: jq not installed"; exit 77; }
FX=$GD_SRCDIR/tests/fixtures
fail=0 checks=0

# run MACHINE [ENV...]: list --json under that root into $out, exit code in $rc
run() {
	local m=$1; shift
	out=$(env -i PATH="$PATH" "$@" "$GPUDOCTOR" --root "$FX/$m/root" list --json)
	rc=$?
}
# expect MACHINE DESCRIPTION JQ-EXPR (must print true)
expect() {
	local m=$1 what=$2 expr=$3 got
	checks=$((checks + 1))
	got=$(printf '%s' "$out" | jq -r "$expr" 2>&1)
	if [ "$got" != "true" ]; then
		echo "FAIL [$m] $what: jq '$expr' gave: $got"
		fail=$((fail + 1))
	fi
}
expect_rc() {
	checks=$((checks + 1))
	[ "$rc" = "$2" ] || { echo "FAIL [$1] exit code $rc, want $2"; fail=$((fail + 1)); }
}

m=mi210-8x; run $m; expect_rc $m 0
expect $m "8 GPUs, all gfx90a with 104 CUs" '(.gpus|length)==8 and all(.gpus[]; .gfx=="gfx90a" and .cu_count==104)'
expect $m "named by amdgpu.ids rev 02" 'all(.gpus[]; .name=="AMD Instinct MI210" and .name_source=="amdgpu.ids")'
expect $m "joined on location_id: node 2 (0x6300) is 0000:63:00.0" '[.gpus[]|select(.pci.bdf=="0000:63:00.0")|.kfd_nodes[0].id]==[2]'
expect $m "render minor from KFD" '[.gpus[]|select(.pci.bdf=="0000:63:00.0")|.render_node]==["/dev/dri/renderD128"]'
expect $m "VRAM unknown with a reason (local_mem_size 0, no mem_banks)" 'all(.gpus[]; .vram_bytes==null and (.vram_bytes_unknown|test("local_mem_size")))'
expect $m "ids are hex strings" '.gpus[0].pci.vendor_id=="0x1002" and .gpus[0].pci.device_id=="0x740f"'
expect $m "discrete" 'all(.gpus[]; .integrated==false)'
expect $m "10 KFD nodes in all" '.kernel.kfd_nodes_total==10'

m=mi300x-cpx; run $m; expect_rc $m 0
expect $m "63 partitions grouped into 8 GPUs" '(.gpus|length)==8 and ([.gpus[].partitions]|add)==63'
expect $m "7 GPUs with 8 partitions, one with 7" '([.gpus[]|select(.partitions==8)]|length)==7 and ([.gpus[]|select(.partitions==7)]|length)==1'
expect $m "CU count sums partitions (8 x 38 = 304)" '.gpus[0].cu_count==304 and .gpus[0].kfd_nodes[0].cu_count==38'
expect $m "gfx942 from 90402" 'all(.gpus[]; .gfx=="gfx942" and .gfx_effective=="gfx942")'
expect $m "partitions share location_id>>3" '.gpus[0].pci.bdf=="0000:05:00.0" and ([.gpus[0].kfd_nodes[].location_id]|map(. / 8|floor)|unique)==[160]'
expect $m "processing accelerator class" '.gpus[0].pci.class=="0x120000"'
expect $m "named MI300X" '.gpus[0].name=="AMD Instinct MI300X"'

m=mi308x-cpx; run $m; expect_rc $m 0
expect $m "32 partitions in 8 GPUs of 4" '(.gpus|length)==8 and all(.gpus[]; .partitions==4)'
expect $m "two PCI domains" '([.gpus[].pci.bdf[0:4]]|unique)==["0000","0001"]'
expect $m "80 CUs per GPU (4 x 20)" 'all(.gpus[]; .cu_count==80)'
expect $m "VRAM: sum of the partitions' mem_banks, as captured" '.gpus[0].vram_bytes==206141652992 and all(.gpus[]; .vram_bytes>200000000000 and (.vram_source|test("mem_banks")))'
expect $m "node 18 joins domain 1" '[.gpus[]|select(.kfd_nodes[0].id==18)|.pci.bdf]==["0001:0b:00.0"]'

m=mi100; run $m; expect_rc $m 0
expect $m "gfx908, 120 CUs" '.gpus[0].gfx=="gfx908" and .gpus[0].cu_count==120'
expect $m "PCI entry is a symlink into sys/devices; driver read" '.gpus[0].pci.bdf=="0000:23:00.0" and .gpus[0].pci.driver=="amdgpu"'
expect $m "named MI100" '.gpus[0].name=="AMD Instinct MI100"'

m=rx7900xtx; run $m; expect_rc $m 0
expect $m "gfx1100, 96 CUs" '.gpus[0].gfx=="gfx1100" and .gpus[0].cu_count==96'
expect $m "no drm_render_minor: render node from drm/renderD128" '.gpus[0].render_node=="/dev/dri/renderD128" and .gpus[0].kfd_nodes[0].drm_render_minor==null and (.gpus[0].kfd_nodes[0].drm_render_minor_unknown|test("drm_render_minor"))'
expect $m "rev c8 is the XTX" '.gpus[0].name=="AMD Radeon RX 7900 XTX" and .gpus[0].pci.revision=="0xc8"'
expect $m "boot_vga read through the symlink" '.gpus[0].pci.boot_vga==true'

m=vega10-oldkernel; run $m; expect_rc $m 0
expect $m "no gfx_target_version: gfx from the kb or unknown with the reason" '(.gpus[0].gfx=="gfx900" and (.gpus[0].gfx_source|test("knowledge base"))) or (.gpus[0].gfx==null and (.gpus[0].gfx_unknown|test("no gfx_target_version in node 1")))'
expect $m "no domain key: domain 0 assumed" '.gpus[0].pci.bdf=="0000:19:00.0" and .gpus[0].kfd_nodes[0].domain==null'
expect $m "64 CUs, 16 GiB local_mem_size" '.gpus[0].cu_count==64 and .gpus[0].vram_bytes==17163091968'
expect $m "named by amdgpu.ids" '.gpus[0].name=="AMD Radeon Instinct MI25"'

m=bristolridge-apu; run $m; expect_rc $m 0
expect $m "one combined CPU+GPU node is a GPU" '(.gpus|length)==1 and .gpus[0].kfd_nodes[0].cpu_cores_count==4 and .gpus[0].cu_count==8'
expect $m "integrated by the combined-node rule" '.gpus[0].integrated==true and (.gpus[0].integrated_why|test("both CPU cores and SIMDs"))'
expect $m "no revision: named by pci.ids" '.gpus[0].pci.revision==null and .gpus[0].name_source=="pci.ids" and (.gpus[0].name|test("Wani"))'
expect $m "location_id 8 is 0000:00:01.0" '.gpus[0].pci.bdf=="0000:00:01.0"'

m=no-gpu; run $m; expect_rc $m 2
expect $m "no GPUs, with why" '(.gpus|length)==0 and (.no_gpu_why|length>0) and .kernel.kfd_present==false'

m=apu-plus-dgpu; run $m; expect_rc $m 0
expect $m "two GPUs, ordered by PCI address" '[.gpus[].pci.device_id]==["0x744c","0x1638"]'
expect $m "dGPU discrete, iGPU integrated (kb APU flag, else the DRM carve-out rule)" '.gpus[0].integrated==false and .gpus[1].integrated==true and (.gpus[1].integrated_why|test("carve-out|knowledge base: PCI id 0x1638 is an APU"))'
expect $m "gfx90c from 90012, 8 CUs" '.gpus[1].gfx=="gfx90c" and .gpus[1].cu_count==8'
expect $m "ROCm agent order follows KFD node order" '.gpus[0].rocm_agent_index==0 and .gpus[1].rocm_agent_index==1'
run $m ROCR_VISIBLE_DEVICES=0
expect $m "ROCR_VISIBLE_DEVICES=0 hides the iGPU" '.gpus[0].visibility.hidden==false and .gpus[1].visibility.hidden==true and (.visible_devices|test("1 of 2"))'
run $m HSA_OVERRIDE_GFX_VERSION_2=9.0.0 HSA_OVERRIDE_GFX_VERSION=11.0.0
expect $m "per-node override wins for node 2, global for node 1" '.gpus[1].gfx_effective=="gfx900" and .gpus[1].override.var=="HSA_OVERRIDE_GFX_VERSION_2" and .gpus[0].gfx_effective=="gfx1100" and .gpus[0].override.var=="HSA_OVERRIDE_GFX_VERSION"'

m=rx5700xt; run $m; expect_rc $m 0
expect $m "the captured card is an RX 5700 (rev c4), 36 CUs, gfx1010" '.gpus[0].name=="AMD Radeon RX 5700" and .gpus[0].cu_count==36 and .gpus[0].gfx=="gfx1010"'
expect $m "VRAM from DRM" '.gpus[0].vram_bytes==8573157376 and .gpus[0].vram_source=="drm mem_info_vram_total"'
expect $m "captured root: access unknown with reason" '.gpus[0].access.kfd==null and (.gpus[0].access.kfd_unknown|test("not in the capture"))'
run $m HSA_OVERRIDE_GFX_VERSION=10.3.0
expect $m "override 10.3.0 -> gfx1030" '.gpus[0].gfx=="gfx1010" and .gpus[0].gfx_effective=="gfx1030" and .gpus[0].override.valid==true'
run $m HSA_OVERRIDE_GFX_VERSION=gfx1030
expect $m "override gfx1030 is invalid: ROCm will refuse to start" '.gpus[0].override.valid==false and (.gpus[0].override.why|test("ROCm will refuse to start")) and .gpus[0].gfx_effective==null'
run $m HIP_VISIBLE_DEVICES=1
expect $m "HIP_VISIBLE_DEVICES=1 on one GPU hides it" '.gpus[0].visibility.hidden==true'

m=strixhalo; run $m; expect_rc $m 0
expect $m "gfx1151 from 110501 (not gfx11501)" '.gpus[0].gfx=="gfx1151"'
expect $m "40 CUs (80 SIMDs / 2)" '.gpus[0].cu_count==40'
expect $m "rev c1 name from the newer amdgpu.ids" '.gpus[0].name=="Radeon 8060S Graphics"'
expect $m "c5:00.0 from BDFID 50432" '.gpus[0].pci.bdf=="0000:c5:00.0"'
expect $m "96 GiB carve-out: not called integrated by the VRAM rule" '(.gpus[0].integrated==true and (.gpus[0].integrated_why|test("knowledge base"))) or (.gpus[0].integrated==false and (.gpus[0].integrated_why|test("knowledge base has no APU flag")))'

# text mode: one line per GPU, and the no-GPU line with exit 2
t=$("$GPUDOCTOR" --root "$FX/rx5700xt/root" list)
checks=$((checks + 1))
[ "$t" = "GPU 0: AMD Radeon RX 5700 (gfx1010, 36 CU, 8.0 GiB) 0000:28:00.0 [1002:731f]" ] ||
	{ echo "FAIL text line: $t"; fail=$((fail + 1)); }
t=$("$GPUDOCTOR" --root "$FX/no-gpu/root" list); rc=$?
checks=$((checks + 1))
case "$t" in "No GPU found"*) [ $rc = 2 ] || { echo "FAIL no-gpu rc $rc"; fail=$((fail + 1)); } ;;
*) echo "FAIL no-gpu text: $t"; fail=$((fail + 1)) ;; esac

echo "test_list: $checks checks, $fail failed"
[ $fail = 0 ]
