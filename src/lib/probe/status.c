/* Status numbers of cuDNN (both numberings), the CUDA driver API and the
 * CUDA runtime, by name. cuDNN 8 and earlier number statuses 0-14; cuDNN 9
 * renumbered them by category (code / 1000). Read from cudnn_ops_infer.h
 * (8.x) and cudnn_graph.h (9.x); CUDA's from cuda.h and driver_types.h. */
#include "probe.h"

#include <stddef.h>

struct code_name {
        long code;
        const char *name;
};

static const struct code_name cudnn_v8[] = {
    {0, "CUDNN_STATUS_SUCCESS"},
    {1, "CUDNN_STATUS_NOT_INITIALIZED"},
    {2, "CUDNN_STATUS_ALLOC_FAILED"},
    {3, "CUDNN_STATUS_BAD_PARAM"},
    {4, "CUDNN_STATUS_INTERNAL_ERROR"},
    {5, "CUDNN_STATUS_INVALID_VALUE"},
    {6, "CUDNN_STATUS_ARCH_MISMATCH"},
    {7, "CUDNN_STATUS_MAPPING_ERROR"},
    {8, "CUDNN_STATUS_EXECUTION_FAILED"},
    {9, "CUDNN_STATUS_NOT_SUPPORTED"},
    {10, "CUDNN_STATUS_LICENSE_ERROR"},
    {11, "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING"},
    {12, "CUDNN_STATUS_RUNTIME_IN_PROGRESS"},
    {13, "CUDNN_STATUS_RUNTIME_FP_OVERFLOW"},
    {14, "CUDNN_STATUS_VERSION_MISMATCH"},
};

static const struct code_name cudnn_v9[] = {
    {0, "CUDNN_STATUS_SUCCESS"},
    {1001, "CUDNN_STATUS_NOT_INITIALIZED"},
    {1002, "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"},
    {1003, "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH"},
    {1004, "CUDNN_STATUS_DEPRECATED"},
    {1005, "CUDNN_STATUS_LICENSE_ERROR"},
    {1006, "CUDNN_STATUS_RUNTIME_IN_PROGRESS"},
    {1007, "CUDNN_STATUS_RUNTIME_FP_OVERFLOW"},
    {1008, "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED"},
    {2000, "CUDNN_STATUS_BAD_PARAM"},
    {2001, "CUDNN_STATUS_INVALID_VALUE"},
    {2002, "CUDNN_STATUS_BAD_PARAM_NULL_POINTER"},
    {2003, "CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER"},
    {2004, "CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED"},
    {2005, "CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND"},
    {2006, "CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT"},
    {2007, "CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH"},
    {2008, "CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH"},
    {2009, "CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES"},
    {2010, "CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE"},
    {2011, "CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH"},
    {2012, "CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE"},
    {3000, "CUDNN_STATUS_NOT_SUPPORTED"},
    {3001, "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN"},
    {3002, "CUDNN_STATUS_NOT_SUPPORTED_SHAPE"},
    {3003, "CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE"},
    {3004, "CUDNN_STATUS_NOT_SUPPORTED_LAYOUT"},
    {3005, "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER"},
    {3006, "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART"},
    {3007, "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH"},
    {3008, "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING"},
    {3009, "CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE"},
    {3010, "CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT"},
    {3011, "CUDNN_STATUS_NOT_SUPPORTED_PADDING"},
    {3012, "CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM"},
    {3013, "CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API"},
    {3014, "CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE"},
    {4000, "CUDNN_STATUS_INTERNAL_ERROR"},
    {4001, "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED"},
    {4002, "CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE"},
    {4003, "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED"},
    {4004, "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED"},
    {4005, "CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM"},
    {4006, "CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED"},
    {5000, "CUDNN_STATUS_EXECUTION_FAILED"},
    {5001, "CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER"},
    {5002, "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS"},
    {5003, "CUDNN_STATUS_EXECUTION_FAILED_CUDART"},
    {5004, "CUDNN_STATUS_EXECUTION_FAILED_CURAND"},
};

/* CUresult (cuda.h): the ones a probe meets. The driver API has no
 * "insufficient driver" code (cudaErrorInsufficientDriver, 35, is the
 * runtime's). kb/status.tsv and kb/cuda_errors.tsv hold the same names
 * (tests/unit/test_explain.c checks that they agree). */
static const struct code_name cu_result[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM"},
    {800, "CUDA_ERROR_NOT_PERMITTED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

/* cudaError_t (driver_types.h): the ones a probe meets. */
static const struct code_name cuda_error[] = {
    {0, "cudaSuccess"},
    {1, "cudaErrorInvalidValue"},
    {2, "cudaErrorMemoryAllocation"},
    {3, "cudaErrorInitializationError"},
    {4, "cudaErrorCudartUnloading"},
    {34, "cudaErrorStubLibrary"},
    {35, "cudaErrorInsufficientDriver"},
    {36, "cudaErrorCallRequiresNewerDriver"},
    {46, "cudaErrorDevicesUnavailable"},
    {100, "cudaErrorNoDevice"},
    {101, "cudaErrorInvalidDevice"},
    {209, "cudaErrorNoKernelImageForDevice"},
    {222, "cudaErrorUnsupportedPtxVersion"},
    {304, "cudaErrorOperatingSystem"},
    {803, "cudaErrorSystemDriverMismatch"},
    {804, "cudaErrorCompatNotSupportedOnDevice"},
    {999, "cudaErrorUnknown"},
};

static const char *lookup(const struct code_name *t, size_t n, long code)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (t[i].code == code)
                        return t[i].name;
        return NULL;
}

const char *cc_cudnn_status_name(int major, long code)
{
        if (major >= 9)
                return lookup(cudnn_v9, CC_ARRAY_LEN(cudnn_v9), code);
        if (major > 0)
                return lookup(cudnn_v8, CC_ARRAY_LEN(cudnn_v8), code);
        /* Major unknown: the two numberings overlap only at 0. */
        if (code >= 1000)
                return lookup(cudnn_v9, CC_ARRAY_LEN(cudnn_v9), code);
        return lookup(cudnn_v8, CC_ARRAY_LEN(cudnn_v8), code);
}

const char *cc_cu_result_name(long code)
{
        return lookup(cu_result, CC_ARRAY_LEN(cu_result), code);
}

const char *cc_cuda_error_name(long code)
{
        return lookup(cuda_error, CC_ARRAY_LEN(cuda_error), code);
}
