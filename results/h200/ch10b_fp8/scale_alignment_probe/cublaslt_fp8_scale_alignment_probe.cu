#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
int main() {
  const int64_t M = 256, N = 256, K = 256;
  void *a, *b, *c, *d, *ws; float* s;
  cudaMalloc(&a, M * K); cudaMalloc(&b, N * K); cudaMalloc(&c, M * N * 4); cudaMalloc(&d, M * N * 4);
  cudaMalloc(&ws, 32 << 20); cudaMalloc(&s, 64);
  cudaMemset(a, 0, M * K); cudaMemset(b, 0, N * K);
  float ones[8] = {1,1,1,1,1,1,1,1}; cudaMemcpy(s, ones, 32, cudaMemcpyHostToDevice);
  cublasLtHandle_t h; cublasLtCreate(&h);
  for (int cfg = 0; cfg < 8; ++cfg) {
    bool scales = cfg & 1, separate_d = cfg & 2, bf16 = cfg & 4;
    cublasLtMatmulDesc_t op; cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    cublasOperation_t t = CUBLAS_OP_T; cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
    if (scales) { const float* p = s; const float* q = s + (bf16 ? 4 : 1);
      cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &p, sizeof p);
      cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &q, sizeof q); }
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, K, N, K);
    cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, K, M, K);
    cublasLtMatrixLayoutCreate(&lc, bf16 ? CUDA_R_16BF : CUDA_R_32F, N, M, N);
    cublasLtMatmulPreference_t pref; cublasLtMatmulPreferenceCreate(&pref);
    uint64_t wsb = 32 << 20; cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof wsb);
    cublasLtMatmulHeuristicResult_t r[4]; int found = 0;
    cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(h, op, la, lb, lc, lc, pref, 4, r, &found);
    cublasStatus_t ms = CUBLAS_STATUS_NOT_INITIALIZED;
    const float one = 1, zero = 0;
    if (hs == 0 && found) ms = cublasLtMatmul(h, op, &one, a, la, b, lb, &zero, c, lc, separate_d ? d : c, lc, &r[0].algo, ws, r[0].workspaceSize, 0);
    cudaError_t e = cudaDeviceSynchronize();
    printf("scales=%d separate_d=%d aligned16_and_bf16=%d heuristic=%d found=%d matmul=%d (%s) cuda=%s\n", scales, separate_d, bf16, hs, found, ms,
           cublasLtGetStatusString(ms), cudaGetErrorString(e));
  }
  printf("cublasLt version %zu\n", cublasLtGetVersion());
}
