"""``GPUOptions``: how a session uses the GPUs of its process."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from estconf.session_config._message import Message
from estconf.session_config._values import (
    Double,
    Float32,
    Int32,
    Int64,
    ProtoBool,
    ProtoString,
    Repeated,
)

__all__ = ["GPUOptions", "GPUOptionsExperimental", "VirtualDevices"]


class VirtualDevices(Message):
    """``tensorflow.GPUOptions.Experimental.VirtualDevices``: virtual GPUs on one visible GPU."""

    proto_name: ClassVar[str] = "tensorflow.GPUOptions.Experimental.VirtualDevices"

    memory_limit_mb: Repeated[Float32] | None = Field(
        None,
        description="Memory limit in MiB of each virtual device; one entry per virtual "
        "device (empty: one device with all the memory).",
    )
    priority: Repeated[Int32] | None = Field(
        None,
        description="Stream priority of each virtual device (lower is higher priority); "
        "empty or as long as memory_limit_mb.",
    )
    device_ordinal: Repeated[Int32] | None = Field(
        None,
        description="Order of the virtual devices among all virtual devices "
        "(empty: the order listed).",
    )


class GPUOptionsExperimental(Message):
    """``tensorflow.GPUOptions.Experimental``: GPU options that may change without notice."""

    proto_name: ClassVar[str] = "tensorflow.GPUOptions.Experimental"

    virtual_devices: Repeated[VirtualDevices] | None = Field(
        None,
        description="Split visible GPUs into virtual devices: one entry per visible GPU; "
        "not with per_process_gpu_memory_fraction.",
    )
    num_virtual_devices_per_gpu: Int32 | None = Field(
        None,
        description="Number of virtual devices on each visible GPU, sharing its memory "
        "(not with virtual_devices).",
    )
    use_unified_memory: ProtoBool | None = Field(
        None,
        description="Allocate GPU memory as CUDA unified memory, which can exceed the "
        "GPU's own memory.",
    )
    num_dev_to_dev_copy_streams: Int32 | None = Field(
        None, description="Number of streams for copies between GPUs (1 to 4; 0 means 1)."
    )
    collective_ring_order: ProtoString | None = Field(
        None,
        description="Comma-separated GPU ids in the order collective ops pass data around "
        "the ring.",
    )
    timestamped_allocator: ProtoBool | None = Field(
        None, description="Reuse freed GPU memory only after the kernels that used it are done."
    )
    kernel_tracker_max_interval: Int32 | None = Field(
        None, description="Track kernel completion every this many kernel launches (0: off)."
    )
    kernel_tracker_max_bytes: Int32 | None = Field(
        None, description="Track kernel completion every this many bytes allocated (0: off)."
    )
    kernel_tracker_max_pending: Int32 | None = Field(
        None,
        description="Hold back kernel launches while this many tracked kernels are pending "
        "(0: no limit).",
    )
    internal_fragmentation_fraction: Double | None = Field(
        None,
        description="Split an allocated chunk when its unused part exceeds this fraction of "
        "the device memory (0: never for that reason).",
    )
    use_cuda_malloc_async: ProtoBool | None = Field(
        None, description="Allocate with CUDA's stream-ordered allocator (cudaMallocAsync)."
    )
    disallow_retry_on_allocation_failure: ProtoBool | None = Field(
        None, description="Fail an allocation at once when memory runs out, without retrying."
    )
    gpu_host_mem_limit_in_mb: Float32 | None = Field(
        None, description="Limit in MiB of the pinned host memory used with GPUs (0: the default)."
    )
    gpu_host_mem_disallow_growth: ProtoBool | None = Field(
        None, description="Do not grow the pinned host memory beyond its initial size."
    )
    gpu_system_memory_size_in_mb: Int32 | None = Field(
        None,
        description="GPU memory in MiB left to the GPU system rather than TensorFlow "
        "(0: the default).",
    )


class GPUOptions(Message):
    """``tensorflow.GPUOptions``: options for all GPUs of the process."""

    proto_name: ClassVar[str] = "tensorflow.GPUOptions"

    per_process_gpu_memory_fraction: Double | None = Field(
        None,
        description="Fraction of each GPU's memory to allocate (above 1: oversubscribe "
        "with unified memory).",
    )
    allow_growth: ProtoBool | None = Field(
        None,
        description="Start with little GPU memory and grow as needed, instead of "
        "allocating it all up front.",
    )
    allocator_type: ProtoString | None = Field(
        None,
        description="GPU allocator: empty for the default, or `BFC` (best-fit with coalescing).",
    )
    deferred_deletion_bytes: Int64 | None = Field(
        None,
        description="Delay freeing up to this many bytes, to call the driver less often "
        "(0: a few MiB).",
    )
    visible_device_list: ProtoString | None = Field(
        None,
        description="Comma-separated visible GPU ids in the order they become `/device:GPU:0`, "
        '`/device:GPU:1`, ... (e.g. `"5,3"`).',
    )
    polling_active_delay_usecs: Int32 | None = Field(
        None,
        description="Microseconds between polls of GPU events while some are pending "
        "(0: the default).",
    )
    polling_inactive_delay_msecs: Int32 | None = Field(
        None,
        description="Milliseconds between polls of GPU events while none are pending "
        "(0: the default).",
    )
    force_gpu_compatible: ProtoBool | None = Field(
        None, description="Allocate all CPU tensors in pinned memory, for faster copies to GPUs."
    )
    experimental: GPUOptionsExperimental | None = Field(
        None, description="Experimental GPU options."
    )
