#!/usr/bin/env python3
# Builds tests/fixtures/<machine>/root trees from the fixtures-research data of
# the shared directory beside the checkout (or GD_FIXTURES_RESEARCH); the tests
# read only what it writes.
import os, shutil, sys
R = os.environ.get("GD_FIXTURES_RESEARCH", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "fixtures-research"))
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")
PCIIDS = '/usr/share/misc/pci.ids'   # Debian bookworm pci.ids 0.0~2023.04.11-1

def w(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)

def fresh(m):
    d = os.path.join(OUT, m, 'root')
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    return d

def copy_topology(src_nodes, root, keep=('properties', 'gpu_id', 'name', 'mem_banks')):
    dst = os.path.join(root, 'sys/class/kfd/kfd/topology/nodes')
    for n in os.listdir(src_nodes):
        for item in keep:
            s = os.path.join(src_nodes, n, item)
            if os.path.isdir(s):
                shutil.copytree(s, os.path.join(dst, n, item))
            elif os.path.isfile(s):
                os.makedirs(os.path.join(dst, n), exist_ok=True)
                shutil.copy(s, os.path.join(dst, n, item))
    parent = os.path.dirname(src_nodes)
    for f in ('generation_id', 'system_properties'):
        if os.path.isfile(os.path.join(parent, f)):
            shutil.copy(os.path.join(parent, f), os.path.join(root, 'sys/class/kfd/kfd/topology', f))

def node(root, n, text):
    w(os.path.join(root, f'sys/class/kfd/kfd/topology/nodes/{n}/properties'), text)

def props(**kv):
    return ''.join(f'{k} {v}\n' for k, v in kv.items())

def pci(root, bdf, vendor, device, cls, rev, sv=None, sd=None, driver='amdgpu',
        speed='16.0 GT/s PCIe', width=16, numa=-1, boot_vga=None, link_parent=None, extra=None):
    if link_parent:
        real = os.path.join(root, 'sys/devices', link_parent, bdf)
        os.makedirs(os.path.join(root, 'sys/bus/pci/devices'), exist_ok=True)
        depth = link_parent.count('/') + 1
        os.symlink('../../../devices/' + link_parent + '/' + bdf,
                   os.path.join(root, 'sys/bus/pci/devices', bdf))
        d = real
        drv_target = '../' * (depth + 2) + 'bus/pci/drivers/' + driver if driver else None
    else:
        d = os.path.join(root, 'sys/bus/pci/devices', bdf)
        drv_target = '../../../../bus/pci/drivers/' + driver if driver else None
    attrs = {'class': f'0x{cls:06x}', 'vendor': f'0x{vendor:04x}', 'device': f'0x{device:04x}',
             'subsystem_vendor': f'0x{(sv if sv is not None else vendor):04x}',
             'subsystem_device': f'0x{(sd if sd is not None else device):04x}',
             'revision': f'0x{rev:02x}' if rev is not None else None,
             'current_link_speed': speed, 'max_link_speed': speed,
             'current_link_width': str(width), 'max_link_width': str(width),
             'numa_node': str(numa)}
    if boot_vga is not None:
        attrs['boot_vga'] = str(boot_vga)
    attrs.update(extra or {})
    for k, v in attrs.items():
        if v is not None:
            w(os.path.join(d, k), v + '\n')
    if drv_target:
        os.symlink(drv_target, os.path.join(d, 'driver'))

def loc2bdf(loc, dom=0):
    return f'{dom:04x}:{(loc >> 8) & 0xff:02x}:{(loc >> 3) & 0x1f:02x}.{loc & 7:x}'

def ids(root, amdgpu='debian', pci_lines=()):
    src = {'debian': 'amdgpu.ids.debian-bookworm-libdrm-common-2.4.114-1',
           'new': 'amdgpu.ids-excerpt.X11Libre-drm-fd15acdb.txt'}[amdgpu]
    os.makedirs(os.path.join(root, 'usr/share/libdrm'), exist_ok=True)
    shutil.copy(os.path.join(R, 'ids', src), os.path.join(root, 'usr/share/libdrm/amdgpu.ids'))
    # pci.ids: header + vendor lines + the device lines asked for, verbatim
    lines = open(PCIIDS, encoding='utf-8', errors='replace').read().split('\n')
    out, vendor = [], None
    hdr = [l for l in lines[:40] if l.startswith('#')]
    want = {}
    for v, d in pci_lines:
        want.setdefault(v, set()).add(d)
    for l in lines:
        if l.startswith('C '):
            break
        if l and not l.startswith('\t') and not l.startswith('#'):
            vendor = l[:4]
            if vendor in want:
                out.append(l)
        elif vendor in want and l.startswith('\t') and not l.startswith('\t\t') and l[1:5] in want[vendor]:
            out.append(l)
    w(os.path.join(root, 'usr/share/misc/pci.ids'), '\n'.join(hdr + out) + '\n')

def gpu_groups(nodes_dir):
    groups = {}
    for n in sorted(os.listdir(nodes_dir), key=int):
        p = dict(l.split() for l in open(os.path.join(nodes_dir, n, 'properties')) if len(l.split()) == 2)
        if int(p.get('simd_count', 0)) == 0:
            continue
        key = (int(p.get('domain', 0)), int(p['location_id']) >> 3)
        groups.setdefault(key, int(p['location_id']) & ~7)
    return [(dom, loc) for (dom, _), loc in groups.items()]

def kfd_props(name):
    return open(os.path.join(R, 'kfd-properties', name)).read()

# 1. mi210-8x
r = fresh('mi210-8x')
copy_topology(f'{R}/kfd-topologies/topo-mi210-xgmi-pcie/nodes', r)
for dom, loc in gpu_groups(f'{r}/sys/class/kfd/kfd/topology/nodes'):
    pci(r, loc2bdf(loc, dom), 0x1002, 0x740f, 0x038000, 0x02, speed='16.0 GT/s PCIe')
ids(r, 'debian', [('1002', '740f')])

# 2. mi300x-cpx
r = fresh('mi300x-cpx')
copy_topology(f'{R}/kfd-topologies/topo-mi300-cpx/topology/nodes', r)
for dom, loc in gpu_groups(f'{r}/sys/class/kfd/kfd/topology/nodes'):
    pci(r, loc2bdf(loc, dom), 0x1002, 0x74a1, 0x120000, 0x00, speed='32.0 GT/s PCIe')
ids(r, 'new', [('1002', '74a1')])

# 3. mi308x-cpx
r = fresh('mi308x-cpx')
copy_topology(f'{R}/kfd-topologies/topology-parsing-mi308/topology/nodes', r)
for dom, loc in gpu_groups(f'{r}/sys/class/kfd/kfd/topology/nodes'):
    pci(r, loc2bdf(loc, dom), 0x1002, 0x74a2, 0x120000, 0x00, speed='32.0 GT/s PCIe')
ids(r, 'new', [('1002', '74a2')])

# 4. mi100 (symlinked PCI layout)
r = fresh('mi100')
node(r, 1, kfd_props('gfx908-mi100-arcturus-testfixture-mrodden-rocmi.txt'))
pci(r, loc2bdf(8960), 0x1002, 0x738c, 0x038000, 0x01, link_parent='pci0000:20/0000:20:01.1')
ids(r, 'debian', [('1002', '738c')])

# 5. rx7900xtx (symlinked PCI layout, no drm_render_minor: render node from drm/)
r = fresh('rx7900xtx')
node(r, 1, kfd_props('gfx1100-rx7900xtx-mockgpu-tinygrad-NO-drm_render_minor.txt'))
b = loc2bdf(34304)
pci(r, b, 0x1002, 0x744c, 0x030000, 0xc8, boot_vga=1, link_parent='pci0000:80/0000:80:01.1/0000:81:00.0/0000:82:00.0',
    extra={})
os.makedirs(os.path.join(r, 'sys/devices/pci0000:80/0000:80:01.1/0000:81:00.0/0000:82:00.0', b, 'drm/renderD128'))
w(os.path.join(r, 'sys/devices/pci0000:80/0000:80:01.1/0000:81:00.0/0000:82:00.0', b, 'drm/renderD128/dev'), '226:128\n')
ids(r, 'new', [('1002', '744c')])

# 6. vega10-oldkernel
r = fresh('vega10-oldkernel')
copy_topology(f'{R}/kfd-topologies/topology-parsing/topology/nodes', r)
pci(r, loc2bdf(6400), 0x1002, 0x6860, 0x030000, 0x00, speed='8.0 GT/s PCIe')
ids(r, 'debian', [('1002', '6860')])

# 7. bristolridge-apu
r = fresh('bristolridge-apu')
node(r, 0, kfd_props('gfx801-bristolridge-apu-combined-node0-ROCm-issue121.txt'))
pci(r, loc2bdf(8), 0x1002, 0x9874, 0x030000, None, speed='8.0 GT/s PCIe', boot_vga=1)
ids(r, 'debian', [('1002', '9874')])

# 8. no-gpu (this build machine, captured by hand)
r = fresh('no-gpu')
pci(r, '0000:00:00.0', 0x8086, 0x0d57, 0x060000, 0x00, sv=0, sd=0, driver=None)
w(os.path.join(r, 'proc/sys/kernel/osrelease'), open('/proc/sys/kernel/osrelease').read())
ids(r, 'debian', [('8086', '0d57')])

# 9. apu-plus-dgpu: RX 7900 XTX node (tinygrad) + Cezanne gfx90c node (partial real lines)
r = fresh('apu-plus-dgpu')
node(r, 1, kfd_props('gfx1100-rx7900xtx-mockgpu-tinygrad-NO-drm_render_minor.txt').replace('location_id 34304', 'location_id 768').replace('domain 0\n', 'domain 0\ndrm_render_minor 128\n'))
node(r, 2, props(cpu_cores_count=0, simd_count=32, simd_per_cu=4, gfx_target_version=90012,
                 vendor_id=4098, device_id=5688, location_id=2048, domain=0, drm_render_minor=129,
                 num_sdma_engines=1, num_sdma_xgmi_engines=0, num_sdma_queues_per_engine=2,
                 local_mem_size=0, sdma_fw_version=40, num_xcc=1))
pci(r, loc2bdf(768), 0x1002, 0x744c, 0x030000, 0xc8, boot_vga=0,
    extra={'mem_info_vram_total': str(24 << 30), 'mem_info_gtt_total': str(31 << 30)})
pci(r, loc2bdf(2048), 0x1002, 0x1638, 0x030000, 0xc8, boot_vga=1, speed='8.0 GT/s PCIe',
    extra={'mem_info_vram_total': str(512 << 20), 'mem_info_gtt_total': str(15 << 30)})
ids(r, 'new', [('1002', '744c'), ('1002', '1638')])

# 10. rx5700xt (really an RX 5700: rocminfo of ROCm/ROCm #1867)
r = fresh('rx5700xt')
node(r, 0, props(cpu_cores_count=16, simd_count=0, vendor_id=0, device_id=0, location_id=0, domain=0,
                 drm_render_minor=0, gfx_target_version=0, max_engine_clk_ccompute=3600))
node(r, 1, props(cpu_cores_count=0, simd_count=72, wave_front_size=32, array_count=8, simd_arrays_per_engine=2,
                 simd_per_cu=2, gfx_target_version=100100, vendor_id=4098, device_id=29471,
                 location_id=10240, domain=0, drm_render_minor=128, max_engine_clk_fcompute=1750,
                 local_mem_size=8372224 * 1024))
pci(r, loc2bdf(10240), 0x1002, 0x731f, 0x030000, 0xc4, boot_vga=1,
    extra={'mem_info_vram_total': str(8372224 * 1024)})
ids(r, 'debian', [('1002', '731f')])

# 11. strixhalo
r = fresh('strixhalo')
node(r, 0, props(cpu_cores_count=32, simd_count=0, vendor_id=0, device_id=0, location_id=0, domain=0,
                 drm_render_minor=0, gfx_target_version=0, max_engine_clk_ccompute=5187))
node(r, 1, props(cpu_cores_count=0, simd_count=80, wave_front_size=32, array_count=4, simd_arrays_per_engine=2,
                 cu_per_simd_array=10, simd_per_cu=2, gfx_target_version=110501, vendor_id=4098,
                 device_id=5510, location_id=50432, domain=0, drm_render_minor=128,
                 max_engine_clk_fcompute=2900))
pci(r, loc2bdf(50432), 0x1002, 0x1586, 0x038000, 0xc1, boot_vga=1,
    extra={'mem_info_vram_total': str(100663296 * 1024)})
ids(r, 'new', [('1002', '1586')])
print('ok')
