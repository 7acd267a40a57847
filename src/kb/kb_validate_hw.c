/* kb/: the schema check of the hardware lists: "nvidia" (GPUs, compute
 * capabilities, minimum drivers) and the optional pci_not_gpu, amd_no_kfd
 * and nvidia_chips. Split out of kb_validate.c (over 600 lines): these
 * lists are checked on their own, apart from the AMD targets, issues and
 * strategies (their "sources" are checked with everyone's there). */
#include <ctype.h>
#include <string.h>

#include "kb_validate.h"

int gd_kbv_check_nvidia(struct gd_kb_vctx *v, const json_t *nv)
{
	json_t *o;
	size_t i;

	gd_kbv_enter(v, NULL, NULL);
	if (!json_is_array(json_object_get(nv, "gpus")) ||
	    !json_is_array(json_object_get(nv, "compute_capabilities")) ||
	    !json_is_array(json_object_get(nv, "cuda_driver_min")))
		return gd_kbv_fail(
		    v, "nvidia", 1,
		    "\"nvidia\" needs the lists \"gpus\", "
		    "\"compute_capabilities\" and \"cuda_driver_min\"");
	json_array_foreach(json_object_get(nv, "gpus"), i, o)
	{
		gd_kbv_enter(v, "pci_id", gd_kbv_str(o, "pci_id"));
		if (!gd_kbv_is_pci(gd_kbv_str(o, "pci_id")) ||
		    !gd_kbv_str(o, "name") || !gd_kbv_str(o, "sm"))
			return gd_kbv_fail(
			    v, "gpus", 1,
			    "each NVIDIA GPU needs "
			    "\"pci_id\" (0x2330), \"name\" and \"sm\"");
	}
	json_array_foreach(json_object_get(nv, "compute_capabilities"), i, o)
	{
		const char *sm = gd_kbv_str(o, "sm");

		gd_kbv_enter(v, "sm", sm);
		if (!sm || strncmp(sm, "sm_", 3) || !gd_kbv_str(o, "cc"))
			return gd_kbv_fail(
			    v, "compute_capabilities", 1,
			    "each compute "
			    "capability needs \"sm\" (sm_90) and \"cc\"");
	}
	json_array_foreach(json_object_get(nv, "cuda_driver_min"), i, o)
	{
		gd_kbv_enter(v, "cuda", gd_kbv_str(o, "cuda"));
		if (!gd_kbv_str(o, "cuda") || !gd_kbv_str_or_null(o, "linux") ||
		    !gd_kbv_str_or_null(o, "windows"))
			return gd_kbv_fail(
			    v, "cuda_driver_min", 1,
			    "each row needs "
			    "\"cuda\"; \"linux\"/\"windows\" strings "
			    "or null");
	}
	return 0;
}

/* "0x12": a PCI base class. */
static int is_base_class(const char *s)
{
	return s && s[0] == '0' && s[1] == 'x' &&
	       isxdigit((unsigned char)s[2]) && isxdigit((unsigned char)s[3]) &&
	       !s[4];
}

/* Optional hardware lists: pci_not_gpu (display devices that are no GPU),
 * amd_no_kfd (AMD families KFD never supported) and nvidia_chips (pci.ids
 * chip-name prefix -> sm). */
int gd_kbv_check_hw(struct gd_kb_vctx *v, const json_t *root)
{
	static const char *const kinds[] = {"bmc", "emulated", "npu",
					    "accelerator", NULL};
	const json_t *o, *id;
	size_t i, j;

	json_array_foreach(json_object_get(root, "pci_not_gpu"), i, o)
	{
		const char *cls = gd_kbv_str(o, "class");

		gd_kbv_enter(v, "name", gd_kbv_str(o, "name"));
		if (json_object_get(o, "class") && !is_base_class(cls))
			return gd_kbv_fail(v, "class", 1,
					   "\"class\" is a PCI base class: "
					   "\"0x\" and 2 hex digits (0x12)");
		if (!gd_kbv_is_pci(gd_kbv_str(o, "vendor_id")) ||
		    !gd_kbv_str(o, "name") ||
		    !gd_kbv_one_of(gd_kbv_str(o, "kind"), kinds) ||
		    (!cls &&
		     !json_array_size(json_object_get(o, "device_ids"))))
			return gd_kbv_fail(
			    v, "pci_not_gpu", 1,
			    "each entry needs "
			    "\"vendor_id\" (0x1a03), \"device_ids\" or "
			    "\"class\", \"kind\" (bmc, emulated, npu, "
			    "accelerator) and \"name\"");
		json_array_foreach(json_object_get(o, "device_ids"), j, id) if (
		    !gd_kbv_is_pci(json_string_value(
			id))) return gd_kbv_fail(v, "device_ids", 1,
						 "device ids "
						 "are \"0x\" and 4 hex digits");
	}
	json_array_foreach(json_object_get(root, "amd_no_kfd"), i, o)
	{
		gd_kbv_enter(v, "gfx", gd_kbv_str(o, "gfx"));
		if (!gd_kbv_is_gfx(gd_kbv_str(o, "gfx")) ||
		    !gd_kbv_str(o, "family") ||
		    !json_array_size(json_object_get(o, "pci_ids")))
			return gd_kbv_fail(
			    v, "amd_no_kfd", 1,
			    "each family needs "
			    "\"gfx\", \"family\" and \"pci_ids\"");
		json_array_foreach(json_object_get(o, "pci_ids"), j, id) if (
		    !gd_kbv_is_pci(json_string_value(
			id))) return gd_kbv_fail(v, "pci_ids", 1,
						 "PCI ids are \"0x\" "
						 "and 4 hex digits");
	}
	json_array_foreach(json_object_get(root, "nvidia_chips"), i, o)
	{
		const char *sm = gd_kbv_str(o, "sm");

		gd_kbv_enter(v, "arch", gd_kbv_str(o, "arch"));
		if (!sm || strncmp(sm, "sm_", 3) || !gd_kbv_str(o, "arch") ||
		    !json_array_size(json_object_get(o, "chips")) ||
		    !gd_kbv_str_or_null(o, "last_driver_branch"))
			return gd_kbv_fail(
			    v, "nvidia_chips", 1,
			    "each entry needs "
			    "\"chips\" (name prefixes), \"sm\", \"arch\" "
			    "and \"last_driver_branch\" (string or null)");
	}
	return 0;
}
