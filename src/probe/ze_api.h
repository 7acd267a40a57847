/* probe/ze_api: the few oneAPI Level Zero entry points and types the probe
 * uses (Level Zero API 1.0 core, docs/probe.md "Sources"; layouts unchanged
 * since). Loaded at run time from the loader libze_loader.so.1 (Windows:
 * ze_loader.dll), never linked. Run against Debian's real loader (libze1) by
 * tests/scripts/test_probe.sh. */
#ifndef GD_ZE_API_H
#define GD_ZE_API_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t ze_result_t;
#define ZE_RESULT_SUCCESS 0u
#define ZE_RESULT_ERROR_UNINITIALIZED 0x78000001u

typedef struct ze_driver *ze_driver_handle_t;
typedef struct ze_device *ze_device_handle_t;
typedef struct ze_context *ze_context_handle_t;
typedef struct ze_command_list *ze_command_list_handle_t;

#define ZE_INIT_FLAG_GPU_ONLY 1u

enum {
	ZE_STYPE_DRIVER_PROPERTIES = 0x1,
	ZE_STYPE_DEVICE_PROPERTIES = 0x3,
	ZE_STYPE_DEVICE_MEMORY_PROPERTIES = 0x7,
	ZE_STYPE_CONTEXT_DESC = 0xd,
	ZE_STYPE_COMMAND_QUEUE_DESC = 0xe,
	ZE_STYPE_DEVICE_MEM_ALLOC_DESC = 0x15,
	ZE_STYPE_HOST_MEM_ALLOC_DESC = 0x16,
};

enum { ZE_DEVICE_TYPE_GPU = 1 };
#define ZE_DEVICE_PROPERTY_FLAG_INTEGRATED 1u
#define ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS 1u

typedef struct {
	uint32_t stype;
	void *pNext;
	uint8_t uuid[16];
	uint32_t driverVersion;
} ze_driver_properties_t;

typedef struct {
	uint32_t stype;
	void *pNext;
	uint32_t type;
	uint32_t vendorId;
	uint32_t deviceId;
	uint32_t flags;
	uint32_t subdeviceId;
	uint32_t coreClockRate;
	uint64_t maxMemAllocSize;
	uint32_t maxHardwareContexts;
	uint32_t maxCommandQueuePriority;
	uint32_t numThreadsPerEU;
	uint32_t physicalEUSimdWidth;
	uint32_t numEUsPerSubslice;
	uint32_t numSubslicesPerSlice;
	uint32_t numSlices;
	uint64_t timerResolution;
	uint32_t timestampValidBits;
	uint32_t kernelTimestampValidBits;
	uint8_t uuid[16];
	char name[256];
} ze_device_properties_t;

typedef struct {
	uint32_t stype;
	void *pNext;
	uint32_t flags;
	uint32_t maxClockRate;
	uint32_t maxBusWidth;
	uint64_t totalSize;
	char name[256];
} ze_device_memory_properties_t;

typedef struct {
	uint32_t stype;
	const void *pNext;
	uint32_t flags;
} ze_context_desc_t;

typedef struct {
	uint32_t stype;
	const void *pNext;
	uint32_t ordinal;
	uint32_t index;
	uint32_t flags;
	uint32_t mode;
	uint32_t priority;
} ze_command_queue_desc_t;

typedef struct {
	uint32_t stype;
	const void *pNext;
	uint32_t flags;
	uint32_t ordinal;
} ze_device_mem_alloc_desc_t;

typedef struct {
	uint32_t stype;
	const void *pNext;
	uint32_t flags;
} ze_host_mem_alloc_desc_t;

struct gd_ze {
	void *lib;
	ze_result_t (*Init)(uint32_t);
	ze_result_t (*DriverGet)(uint32_t *, ze_driver_handle_t *);
	ze_result_t (*DriverGetProperties)(ze_driver_handle_t,
					   ze_driver_properties_t *);
	ze_result_t (*DeviceGet)(ze_driver_handle_t, uint32_t *,
				 ze_device_handle_t *);
	ze_result_t (*DeviceGetProperties)(ze_device_handle_t,
					   ze_device_properties_t *);
	ze_result_t (*DeviceGetMemoryProperties)(
	    ze_device_handle_t, uint32_t *, ze_device_memory_properties_t *);
	ze_result_t (*ContextCreate)(ze_driver_handle_t,
				     const ze_context_desc_t *,
				     ze_context_handle_t *);
	ze_result_t (*ContextDestroy)(ze_context_handle_t);
	ze_result_t (*CommandListCreateImmediate)(
	    ze_context_handle_t, ze_device_handle_t,
	    const ze_command_queue_desc_t *, ze_command_list_handle_t *);
	ze_result_t (*CommandListDestroy)(ze_command_list_handle_t);
	ze_result_t (*CommandListAppendMemoryCopy)(ze_command_list_handle_t,
						   void *, const void *, size_t,
						   void *, uint32_t, void *);
	ze_result_t (*CommandListAppendMemoryFill)(ze_command_list_handle_t,
						   void *, const void *, size_t,
						   size_t, void *, uint32_t,
						   void *);
	ze_result_t (*MemAllocDevice)(ze_context_handle_t,
				      const ze_device_mem_alloc_desc_t *,
				      size_t, size_t, ze_device_handle_t,
				      void **);
	ze_result_t (*MemAllocHost)(ze_context_handle_t,
				    const ze_host_mem_alloc_desc_t *, size_t,
				    size_t, void **);
	ze_result_t (*MemFree)(ze_context_handle_t, void *);
};

/* The name of a ze_result_t ("ZE_RESULT_ERROR_DEVICE_LOST"), or NULL. */
const char *gd_ze_err(ze_result_t r);

#endif
