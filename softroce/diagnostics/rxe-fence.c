/* Does IBV_SEND_FENCE work on this device? One RC queue pair connected to itself (rxe0, port 1,
 * its IPv4-mapped GID).
 *   ./rxe-fence FENCE ITERATIONS K [SIGNAL_READS [MODE]]
 * MODE 0: per iteration one chain of K pairs (READ A -> L[i], WRITE L[i] -> B[i], the WRITE fenced
 *         when FENCE=1); counts WRITEs that sent L[i] before the READ filled it ("misordered").
 * MODE 1: per iteration K times: post FETCH_AND_ADD, then post a READ (fenced when FENCE=1), each
 *         with its own ibv_post_send, as ComputeThread's async calls do.
 * A stall is 3 s without a completion; the program then posts one more WRITE ("kick") and exits 3
 * if that does not release it. Build: gcc -O2 -o rxe-fence rxe-fence.c -libverbs; run it in a
 * guest with rxe-fence.sh (softroce/vm.sh softroce/diagnostics/rxe-fence.sh JOB_DIR).
 * Debian 6.1.0 rxe: MODE 1 with FENCE=1 stalled in every run (4 of 4, after 1353..10277
 * iterations), not released by the kick; FENCE=0 ran 2 x 20000 iterations without a stall. MODE 0
 * never misordered even without the fence: rxe handles a loopback READ before the next request. */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
#define DIE(m) do{perror(m);exit(1);}while(0)
int main(int argc,char**argv){
  int fence=atoi(argv[1]); int iters=atoi(argv[2]); int K=atoi(argv[3]); int signal_read=argc>4?atoi(argv[4]):0; int mode=argc>5?atoi(argv[5]):0;
  int n; struct ibv_device**l=ibv_get_device_list(&n); if(!l||!n) DIE("devs");
  struct ibv_context*c=ibv_open_device(l[0]); struct ibv_pd*pd=ibv_alloc_pd(c);
  size_t sz=1<<20; uint64_t*buf=aligned_alloc(4096,sz); memset(buf,0,sz);
  struct ibv_mr*mr=ibv_reg_mr(pd,buf,sz,IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_READ|IBV_ACCESS_REMOTE_WRITE|IBV_ACCESS_REMOTE_ATOMIC);
  struct ibv_cq*cq=ibv_create_cq(c,4096,0,0,0);
  struct ibv_qp_init_attr ia={.send_cq=cq,.recv_cq=cq,.cap={.max_send_wr=2048,.max_recv_wr=1,.max_send_sge=1,.max_recv_sge=1},.qp_type=IBV_QPT_RC};
  struct ibv_qp*qp=ibv_create_qp(pd,&ia); if(!qp) DIE("qp");
  union ibv_gid gid; int gi=-1; for(int i=0;i<4;i++){ if(ibv_query_gid(c,1,i,&gid)==0 && gid.raw[10]==0xff && gid.raw[11]==0xff){gi=i;break;} }
  if(gi<0) DIE("no ipv4 gid");
  struct ibv_qp_attr a={.qp_state=IBV_QPS_INIT,.pkey_index=0,.port_num=1,.qp_access_flags=IBV_ACCESS_REMOTE_READ|IBV_ACCESS_REMOTE_WRITE|IBV_ACCESS_REMOTE_ATOMIC};
  if(ibv_modify_qp(qp,&a,IBV_QP_STATE|IBV_QP_PKEY_INDEX|IBV_QP_PORT|IBV_QP_ACCESS_FLAGS)) DIE("init");
  memset(&a,0,sizeof a); a.qp_state=IBV_QPS_RTR; a.path_mtu=IBV_MTU_1024; a.dest_qp_num=qp->qp_num; a.rq_psn=0; a.max_dest_rd_atomic=16; a.min_rnr_timer=12;
  a.ah_attr.is_global=1; a.ah_attr.grh.dgid=gid; a.ah_attr.grh.sgid_index=gi; a.ah_attr.grh.hop_limit=1; a.ah_attr.port_num=1;
  if(ibv_modify_qp(qp,&a,IBV_QP_STATE|IBV_QP_AV|IBV_QP_PATH_MTU|IBV_QP_DEST_QPN|IBV_QP_RQ_PSN|IBV_QP_MAX_DEST_RD_ATOMIC|IBV_QP_MIN_RNR_TIMER)) DIE("rtr");
  memset(&a,0,sizeof a); a.qp_state=IBV_QPS_RTS; a.timeout=14; a.retry_cnt=7; a.rnr_retry=7; a.sq_psn=0; a.max_rd_atomic=16;
  if(ibv_modify_qp(qp,&a,IBV_QP_STATE|IBV_QP_TIMEOUT|IBV_QP_RETRY_CNT|IBV_QP_RNR_RETRY|IBV_QP_SQ_PSN|IBV_QP_MAX_QP_RD_ATOMIC)) DIE("rts");
  uint64_t*A=buf, *L=buf+64, *B=buf+64+4096;
  long stalls=0, bad=0, kicks_helped=0; double t0=now();
  for(int it=0;it<iters;it++){
    *A=0x1000000ull+it;
    for(int i=0;i<K;i++){ L[i]=0; B[i]=0; }
    struct ibv_send_wr w[2*K]; struct ibv_sge s[2*K]; memset(w,0,sizeof w);
    int expect=0;
    if(mode){ /* separate doorbells: FAA then fenced READ, like AllocationFreeTest's workload */
      for(int i=0;i<K;i++){
        struct ibv_sge s1={(uintptr_t)&L[2*i],8,mr->lkey}, s2={(uintptr_t)&L[2*i+1],8,mr->lkey};
        struct ibv_send_wr w1={.wr_id=2*i,.sg_list=&s1,.num_sge=1,.opcode=IBV_WR_ATOMIC_FETCH_AND_ADD,.send_flags=IBV_SEND_SIGNALED};
        w1.wr.atomic.remote_addr=(uintptr_t)&B[4000]; w1.wr.atomic.rkey=mr->rkey; w1.wr.atomic.compare_add=1;
        struct ibv_send_wr w2={.wr_id=2*i+1,.sg_list=&s2,.num_sge=1,.opcode=IBV_WR_RDMA_READ,.send_flags=IBV_SEND_SIGNALED|(fence?IBV_SEND_FENCE:0)};
        w2.wr.rdma.remote_addr=(uintptr_t)A; w2.wr.rdma.rkey=mr->rkey;
        struct ibv_send_wr*bw; if(ibv_post_send(qp,&w1,&bw)||ibv_post_send(qp,&w2,&bw)) DIE("post");
      }
      expect=2*K;
      for(int i=0;i<K;i++){ B[i]=*A; }
      goto poll;
    }
    for(int i=0;i<K;i++){
      s[2*i]=(struct ibv_sge){(uintptr_t)&L[i],8,mr->lkey}; s[2*i+1]=(struct ibv_sge){(uintptr_t)&L[i],8,mr->lkey};
      w[2*i]=(struct ibv_send_wr){.wr_id=2*i,.next=&w[2*i+1],.sg_list=&s[2*i],.num_sge=1,.opcode=IBV_WR_RDMA_READ,.send_flags=signal_read?IBV_SEND_SIGNALED:0};
      w[2*i].wr.rdma.remote_addr=(uintptr_t)A; w[2*i].wr.rdma.rkey=mr->rkey;
      w[2*i+1]=(struct ibv_send_wr){.wr_id=2*i+1,.next=i+1<K?&w[2*i+2]:NULL,.sg_list=&s[2*i+1],.num_sge=1,.opcode=IBV_WR_RDMA_WRITE,.send_flags=IBV_SEND_SIGNALED|(fence?IBV_SEND_FENCE:0)};
      w[2*i+1].wr.rdma.remote_addr=(uintptr_t)&B[i]; w[2*i+1].wr.rdma.rkey=mr->rkey;
      expect+=1+(signal_read?1:0);
    }
    { struct ibv_send_wr*badwr; if(ibv_post_send(qp,w,&badwr)) DIE("post"); }
    poll:;
    struct ibv_send_wr*badwr; int got=0; double last=now(); int kicked=0;
    struct ibv_wc wc[64];
    while(got<expect){
      int r=ibv_poll_cq(cq,64,wc); if(r<0) DIE("poll");
      for(int j=0;j<r;j++){ if(wc[j].status!=IBV_WC_SUCCESS){fprintf(stderr,"wc status %s op %d\n",ibv_wc_status_str(wc[j].status),wc[j].opcode);exit(2);} if(wc[j].wr_id!=999999) got++; }
      if(r>0){last=now();continue;}
      if(now()-last>3.0){
        if(!kicked){ stalls++; fprintf(stderr,"STALL it=%d got=%d/%d; kicking\n",it,got,expect);
          struct ibv_sge ks={(uintptr_t)&buf[8000],8,mr->lkey};
          struct ibv_send_wr k={.wr_id=999999,.sg_list=&ks,.num_sge=1,.opcode=IBV_WR_RDMA_WRITE,.send_flags=0};
          k.wr.rdma.remote_addr=(uintptr_t)&buf[8001]; k.wr.rdma.rkey=mr->rkey;
          if(ibv_post_send(qp,&k,&badwr)) DIE("kick"); kicked=1; last=now(); expect+=0; }
        else { fprintf(stderr,"STALL persists after kick it=%d got=%d/%d\n",it,got,expect); exit(3);} }
    }
    if(kicked) kicks_helped++;
    for(int i=0;i<K;i++) if(B[i]!=*A) bad++;
  }
  printf("mode=%d fence=%d iters=%d K=%d signal_read=%d: stalls=%ld (kick helped %ld) misordered=%ld of %ld, %.1f s\n",mode,fence,iters,K,signal_read,stalls,kicks_helped,bad,(long)iters*K,now()-t0);
  return 0;
}
