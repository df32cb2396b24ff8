package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct ibv_send_wr {
 *     uint64_t        wr_id;
 *     struct ibv_send_wr     *next;
 *     struct ibv_sge           *sg_list;
 *     int            num_sge;
 *     enum ibv_wr_opcode    opcode;
 *     unsigned int        send_flags;
 *     union {
 *         __be32            imm_data;
 *         uint32_t        invalidate_rkey;
 *     };
 *     union {
 *         struct {
 *             uint64_t    remote_addr;
 *             uint32_t    rkey;
 *         } rdma;
 *         struct {
 *             uint64_t    remote_addr;
 *             uint64_t    compare_add;
 *             uint64_t    swap;
 *             uint32_t    rkey;
 *         } atomic;
 *         struct {
 *             struct ibv_ah  *ah;
 *             uint32_t    remote_qpn;
 *             uint32_t    remote_qkey;
 *         } ud;
 *     } wr;
 *     union {
 *         struct {
 *             uint32_t    remote_srqn;
 *         } xrc;
 *     } qp_type;
 *     union {
 *         struct {
 *             struct ibv_mw    *mw;
 *             uint32_t        rkey;
 *             struct ibv_mw_bind_info    bind_info;
 *         } bind_mw;
 *         struct {
 *             void               *hdr;
 *             uint16_t        hdr_sz;
 *             uint16_t        mss;
 *         } tso;
 *     };
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_send_wr {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("wr_id"),
            ADDRESS.withName("next"),
            ADDRESS.withName("sg_list"),
            JAVA_INT.withName("num_sge"),
            JAVA_INT.withName("opcode"),
            JAVA_INT.withName("send_flags"),
            MemoryLayout.unionLayout(
                    JAVA_INT.withName("imm_data"),
                    JAVA_INT.withName("invalidate_rkey")
            ).withName("$anon0"),
            wr.layout().withName("wr"),
            qp_type.layout().withName("qp_type"),
            MemoryLayout.paddingLayout(4),
            MemoryLayout.unionLayout(
                    bind_mw.layout().withName("bind_mw"),
                    tso.layout().withName("tso")
            ).withName("$anon1")
    ).withName("ibv_send_wr");

    private ibv_send_wr() {
    }

    /** {@return the layout of {@code struct ibv_send_wr}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_send_wr)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code wr_id}. */
    public static final long wr_id$OFFSET = 0;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->wr_id} */
    public static long wr_id(MemorySegment s) {
        return s.get(JAVA_LONG, wr_id$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->wr_id} */
    public static void wr_id(MemorySegment s, long v) {
        s.set(JAVA_LONG, wr_id$OFFSET, v);
    }

    /** Offset of {@code next}. */
    public static final long next$OFFSET = 8;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->next} */
    public static MemorySegment next(MemorySegment s) {
        return s.get(ADDRESS, next$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->next} */
    public static void next(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, next$OFFSET, v);
    }

    /** Offset of {@code sg_list}. */
    public static final long sg_list$OFFSET = 16;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->sg_list} */
    public static MemorySegment sg_list(MemorySegment s) {
        return s.get(ADDRESS, sg_list$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->sg_list} */
    public static void sg_list(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, sg_list$OFFSET, v);
    }

    /** Offset of {@code num_sge}. */
    public static final long num_sge$OFFSET = 24;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->num_sge} */
    public static int num_sge(MemorySegment s) {
        return s.get(JAVA_INT, num_sge$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->num_sge} */
    public static void num_sge(MemorySegment s, int v) {
        s.set(JAVA_INT, num_sge$OFFSET, v);
    }

    /** Offset of {@code opcode}. */
    public static final long opcode$OFFSET = 28;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->opcode} */
    public static int opcode(MemorySegment s) {
        return s.get(JAVA_INT, opcode$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->opcode} */
    public static void opcode(MemorySegment s, int v) {
        s.set(JAVA_INT, opcode$OFFSET, v);
    }

    /** Offset of {@code send_flags}. */
    public static final long send_flags$OFFSET = 32;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->send_flags} */
    public static int send_flags(MemorySegment s) {
        return s.get(JAVA_INT, send_flags$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->send_flags} */
    public static void send_flags(MemorySegment s, int v) {
        s.set(JAVA_INT, send_flags$OFFSET, v);
    }

    /** Offset of {@code imm_data}. */
    public static final long imm_data$OFFSET = 36;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->imm_data} */
    public static int imm_data(MemorySegment s) {
        return s.get(JAVA_INT, imm_data$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->imm_data} */
    public static void imm_data(MemorySegment s, int v) {
        s.set(JAVA_INT, imm_data$OFFSET, v);
    }

    /** Offset of {@code invalidate_rkey}. */
    public static final long invalidate_rkey$OFFSET = 36;

    /** @param s a {@code struct ibv_send_wr} @return {@code s->invalidate_rkey} */
    public static int invalidate_rkey(MemorySegment s) {
        return s.get(JAVA_INT, invalidate_rkey$OFFSET);
    }

    /** @param s a {@code struct ibv_send_wr} @param v the value for {@code s->invalidate_rkey} */
    public static void invalidate_rkey(MemorySegment s, int v) {
        s.set(JAVA_INT, invalidate_rkey$OFFSET, v);
    }

    /** Offset of {@code wr}. */
    public static final long wr$OFFSET = 40;

    /** @param s a {@code struct ibv_send_wr} @return the nested member {@code s->wr}, as a slice of {@code s} */
    public static MemorySegment wr(MemorySegment s) {
        return s.asSlice(wr$OFFSET, 32);
    }

    /** Offset of {@code qp_type}. */
    public static final long qp_type$OFFSET = 72;

    /** @param s a {@code struct ibv_send_wr} @return the nested member {@code s->qp_type}, as a slice of {@code s} */
    public static MemorySegment qp_type(MemorySegment s) {
        return s.asSlice(qp_type$OFFSET, 4);
    }

    /** Offset of {@code bind_mw}. */
    public static final long bind_mw$OFFSET = 80;

    /** @param s a {@code struct ibv_send_wr} @return the nested member {@code s->bind_mw}, as a slice of {@code s} */
    public static MemorySegment bind_mw(MemorySegment s) {
        return s.asSlice(bind_mw$OFFSET, 48);
    }

    /** Offset of {@code tso}. */
    public static final long tso$OFFSET = 80;

    /** @param s a {@code struct ibv_send_wr} @return the nested member {@code s->tso}, as a slice of {@code s} */
    public static MemorySegment tso(MemorySegment s) {
        return s.asSlice(tso$OFFSET, 16);
    }

    /** The {@code union} member {@code wr} of {@code struct ibv_send_wr}; its offsets are relative to that member. */
    public static final class wr {
        private static final GroupLayout $LAYOUT = MemoryLayout.unionLayout(
                rdma.layout().withName("rdma"),
                atomic.layout().withName("atomic"),
                ud.layout().withName("ud")
        ).withName("wr");

        private wr() {
        }

        /** {@return the layout of {@code ibv_send_wr.wr}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(ibv_send_wr.wr)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code rdma}. */
        public static final long rdma$OFFSET = 0;

        /** @param s a {@code ibv_send_wr.wr} @return the nested member {@code s->rdma}, as a slice of {@code s} */
        public static MemorySegment rdma(MemorySegment s) {
            return s.asSlice(rdma$OFFSET, 16);
        }

        /** Offset of {@code atomic}. */
        public static final long atomic$OFFSET = 0;

        /** @param s a {@code ibv_send_wr.wr} @return the nested member {@code s->atomic}, as a slice of {@code s} */
        public static MemorySegment atomic(MemorySegment s) {
            return s.asSlice(atomic$OFFSET, 32);
        }

        /** Offset of {@code ud}. */
        public static final long ud$OFFSET = 0;

        /** @param s a {@code ibv_send_wr.wr} @return the nested member {@code s->ud}, as a slice of {@code s} */
        public static MemorySegment ud(MemorySegment s) {
            return s.asSlice(ud$OFFSET, 16);
        }

        /** The {@code struct} member {@code rdma} of {@code ibv_send_wr.wr}; its offsets are relative to that member. */
        public static final class rdma {
            private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                    JAVA_LONG.withName("remote_addr"),
                    JAVA_INT.withName("rkey"),
                    MemoryLayout.paddingLayout(4)
            ).withName("rdma");

            private rdma() {
            }

            /** {@return the layout of {@code ibv_send_wr.wr.rdma}} */
            public static GroupLayout layout() {
                return $LAYOUT;
            }

            /** {@return {@code sizeof(ibv_send_wr.wr.rdma)}} */
            public static long sizeof() {
                return $LAYOUT.byteSize();
            }

            /** Offset of {@code remote_addr}. */
            public static final long remote_addr$OFFSET = 0;

            /** @param s a {@code ibv_send_wr.wr.rdma} @return {@code s->remote_addr} */
            public static long remote_addr(MemorySegment s) {
                return s.get(JAVA_LONG, remote_addr$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.rdma} @param v the value for {@code s->remote_addr} */
            public static void remote_addr(MemorySegment s, long v) {
                s.set(JAVA_LONG, remote_addr$OFFSET, v);
            }

            /** Offset of {@code rkey}. */
            public static final long rkey$OFFSET = 8;

            /** @param s a {@code ibv_send_wr.wr.rdma} @return {@code s->rkey} */
            public static int rkey(MemorySegment s) {
                return s.get(JAVA_INT, rkey$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.rdma} @param v the value for {@code s->rkey} */
            public static void rkey(MemorySegment s, int v) {
                s.set(JAVA_INT, rkey$OFFSET, v);
            }
        }

        /** The {@code struct} member {@code atomic} of {@code ibv_send_wr.wr}; its offsets are relative to that member. */
        public static final class atomic {
            private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                    JAVA_LONG.withName("remote_addr"),
                    JAVA_LONG.withName("compare_add"),
                    JAVA_LONG.withName("swap"),
                    JAVA_INT.withName("rkey"),
                    MemoryLayout.paddingLayout(4)
            ).withName("atomic");

            private atomic() {
            }

            /** {@return the layout of {@code ibv_send_wr.wr.atomic}} */
            public static GroupLayout layout() {
                return $LAYOUT;
            }

            /** {@return {@code sizeof(ibv_send_wr.wr.atomic)}} */
            public static long sizeof() {
                return $LAYOUT.byteSize();
            }

            /** Offset of {@code remote_addr}. */
            public static final long remote_addr$OFFSET = 0;

            /** @param s a {@code ibv_send_wr.wr.atomic} @return {@code s->remote_addr} */
            public static long remote_addr(MemorySegment s) {
                return s.get(JAVA_LONG, remote_addr$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.atomic} @param v the value for {@code s->remote_addr} */
            public static void remote_addr(MemorySegment s, long v) {
                s.set(JAVA_LONG, remote_addr$OFFSET, v);
            }

            /** Offset of {@code compare_add}. */
            public static final long compare_add$OFFSET = 8;

            /** @param s a {@code ibv_send_wr.wr.atomic} @return {@code s->compare_add} */
            public static long compare_add(MemorySegment s) {
                return s.get(JAVA_LONG, compare_add$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.atomic} @param v the value for {@code s->compare_add} */
            public static void compare_add(MemorySegment s, long v) {
                s.set(JAVA_LONG, compare_add$OFFSET, v);
            }

            /** Offset of {@code swap}. */
            public static final long swap$OFFSET = 16;

            /** @param s a {@code ibv_send_wr.wr.atomic} @return {@code s->swap} */
            public static long swap(MemorySegment s) {
                return s.get(JAVA_LONG, swap$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.atomic} @param v the value for {@code s->swap} */
            public static void swap(MemorySegment s, long v) {
                s.set(JAVA_LONG, swap$OFFSET, v);
            }

            /** Offset of {@code rkey}. */
            public static final long rkey$OFFSET = 24;

            /** @param s a {@code ibv_send_wr.wr.atomic} @return {@code s->rkey} */
            public static int rkey(MemorySegment s) {
                return s.get(JAVA_INT, rkey$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.atomic} @param v the value for {@code s->rkey} */
            public static void rkey(MemorySegment s, int v) {
                s.set(JAVA_INT, rkey$OFFSET, v);
            }
        }

        /** The {@code struct} member {@code ud} of {@code ibv_send_wr.wr}; its offsets are relative to that member. */
        public static final class ud {
            private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                    ADDRESS.withName("ah"),
                    JAVA_INT.withName("remote_qpn"),
                    JAVA_INT.withName("remote_qkey")
            ).withName("ud");

            private ud() {
            }

            /** {@return the layout of {@code ibv_send_wr.wr.ud}} */
            public static GroupLayout layout() {
                return $LAYOUT;
            }

            /** {@return {@code sizeof(ibv_send_wr.wr.ud)}} */
            public static long sizeof() {
                return $LAYOUT.byteSize();
            }

            /** Offset of {@code ah}. */
            public static final long ah$OFFSET = 0;

            /** @param s a {@code ibv_send_wr.wr.ud} @return {@code s->ah} */
            public static MemorySegment ah(MemorySegment s) {
                return s.get(ADDRESS, ah$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.ud} @param v the value for {@code s->ah} */
            public static void ah(MemorySegment s, MemorySegment v) {
                s.set(ADDRESS, ah$OFFSET, v);
            }

            /** Offset of {@code remote_qpn}. */
            public static final long remote_qpn$OFFSET = 8;

            /** @param s a {@code ibv_send_wr.wr.ud} @return {@code s->remote_qpn} */
            public static int remote_qpn(MemorySegment s) {
                return s.get(JAVA_INT, remote_qpn$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.ud} @param v the value for {@code s->remote_qpn} */
            public static void remote_qpn(MemorySegment s, int v) {
                s.set(JAVA_INT, remote_qpn$OFFSET, v);
            }

            /** Offset of {@code remote_qkey}. */
            public static final long remote_qkey$OFFSET = 12;

            /** @param s a {@code ibv_send_wr.wr.ud} @return {@code s->remote_qkey} */
            public static int remote_qkey(MemorySegment s) {
                return s.get(JAVA_INT, remote_qkey$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.wr.ud} @param v the value for {@code s->remote_qkey} */
            public static void remote_qkey(MemorySegment s, int v) {
                s.set(JAVA_INT, remote_qkey$OFFSET, v);
            }
        }
    }

    /** The {@code union} member {@code qp_type} of {@code struct ibv_send_wr}; its offsets are relative to that member. */
    public static final class qp_type {
        private static final GroupLayout $LAYOUT = MemoryLayout.unionLayout(
                xrc.layout().withName("xrc")
        ).withName("qp_type");

        private qp_type() {
        }

        /** {@return the layout of {@code ibv_send_wr.qp_type}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(ibv_send_wr.qp_type)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code xrc}. */
        public static final long xrc$OFFSET = 0;

        /** @param s a {@code ibv_send_wr.qp_type} @return the nested member {@code s->xrc}, as a slice of {@code s} */
        public static MemorySegment xrc(MemorySegment s) {
            return s.asSlice(xrc$OFFSET, 4);
        }

        /** The {@code struct} member {@code xrc} of {@code ibv_send_wr.qp_type}; its offsets are relative to that member. */
        public static final class xrc {
            private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                    JAVA_INT.withName("remote_srqn")
            ).withName("xrc");

            private xrc() {
            }

            /** {@return the layout of {@code ibv_send_wr.qp_type.xrc}} */
            public static GroupLayout layout() {
                return $LAYOUT;
            }

            /** {@return {@code sizeof(ibv_send_wr.qp_type.xrc)}} */
            public static long sizeof() {
                return $LAYOUT.byteSize();
            }

            /** Offset of {@code remote_srqn}. */
            public static final long remote_srqn$OFFSET = 0;

            /** @param s a {@code ibv_send_wr.qp_type.xrc} @return {@code s->remote_srqn} */
            public static int remote_srqn(MemorySegment s) {
                return s.get(JAVA_INT, remote_srqn$OFFSET);
            }

            /** @param s a {@code ibv_send_wr.qp_type.xrc} @param v the value for {@code s->remote_srqn} */
            public static void remote_srqn(MemorySegment s, int v) {
                s.set(JAVA_INT, remote_srqn$OFFSET, v);
            }
        }
    }

    /** The {@code struct} member {@code bind_mw} of {@code struct ibv_send_wr}; its offsets are relative to that member. */
    public static final class bind_mw {
        private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                ADDRESS.withName("mw"),
                JAVA_INT.withName("rkey"),
                MemoryLayout.paddingLayout(4),
                ibv_mw_bind_info.layout().withName("bind_info")
        ).withName("bind_mw");

        private bind_mw() {
        }

        /** {@return the layout of {@code ibv_send_wr.bind_mw}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(ibv_send_wr.bind_mw)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code mw}. */
        public static final long mw$OFFSET = 0;

        /** @param s a {@code ibv_send_wr.bind_mw} @return {@code s->mw} */
        public static MemorySegment mw(MemorySegment s) {
            return s.get(ADDRESS, mw$OFFSET);
        }

        /** @param s a {@code ibv_send_wr.bind_mw} @param v the value for {@code s->mw} */
        public static void mw(MemorySegment s, MemorySegment v) {
            s.set(ADDRESS, mw$OFFSET, v);
        }

        /** Offset of {@code rkey}. */
        public static final long rkey$OFFSET = 8;

        /** @param s a {@code ibv_send_wr.bind_mw} @return {@code s->rkey} */
        public static int rkey(MemorySegment s) {
            return s.get(JAVA_INT, rkey$OFFSET);
        }

        /** @param s a {@code ibv_send_wr.bind_mw} @param v the value for {@code s->rkey} */
        public static void rkey(MemorySegment s, int v) {
            s.set(JAVA_INT, rkey$OFFSET, v);
        }

        /** Offset of {@code bind_info}. */
        public static final long bind_info$OFFSET = 16;

        /** @param s a {@code ibv_send_wr.bind_mw} @return the nested struct {@code s->bind_info}, as a slice of {@code s} */
        public static MemorySegment bind_info(MemorySegment s) {
            return s.asSlice(bind_info$OFFSET, 32);
        }
    }

    /** The {@code struct} member {@code tso} of {@code struct ibv_send_wr}; its offsets are relative to that member. */
    public static final class tso {
        private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                ADDRESS.withName("hdr"),
                JAVA_SHORT.withName("hdr_sz"),
                JAVA_SHORT.withName("mss"),
                MemoryLayout.paddingLayout(4)
        ).withName("tso");

        private tso() {
        }

        /** {@return the layout of {@code ibv_send_wr.tso}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(ibv_send_wr.tso)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code hdr}. */
        public static final long hdr$OFFSET = 0;

        /** @param s a {@code ibv_send_wr.tso} @return {@code s->hdr} */
        public static MemorySegment hdr(MemorySegment s) {
            return s.get(ADDRESS, hdr$OFFSET);
        }

        /** @param s a {@code ibv_send_wr.tso} @param v the value for {@code s->hdr} */
        public static void hdr(MemorySegment s, MemorySegment v) {
            s.set(ADDRESS, hdr$OFFSET, v);
        }

        /** Offset of {@code hdr_sz}. */
        public static final long hdr_sz$OFFSET = 8;

        /** @param s a {@code ibv_send_wr.tso} @return {@code s->hdr_sz} */
        public static short hdr_sz(MemorySegment s) {
            return s.get(JAVA_SHORT, hdr_sz$OFFSET);
        }

        /** @param s a {@code ibv_send_wr.tso} @param v the value for {@code s->hdr_sz} */
        public static void hdr_sz(MemorySegment s, short v) {
            s.set(JAVA_SHORT, hdr_sz$OFFSET, v);
        }

        /** Offset of {@code mss}. */
        public static final long mss$OFFSET = 10;

        /** @param s a {@code ibv_send_wr.tso} @return {@code s->mss} */
        public static short mss(MemorySegment s) {
            return s.get(JAVA_SHORT, mss$OFFSET);
        }

        /** @param s a {@code ibv_send_wr.tso} @param v the value for {@code s->mss} */
        public static void mss(MemorySegment s, short v) {
            s.set(JAVA_SHORT, mss$OFFSET, v);
        }
    }
}
