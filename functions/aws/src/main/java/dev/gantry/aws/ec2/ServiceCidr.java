package dev.gantry.aws.ec2;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Addresses in a cluster's service CIDR, IPv4 or IPv6. */
final class ServiceCidr {
    private ServiceCidr() {
    }

    /**
     * The CIDR's base address plus ten, where EKS puts kube-dns: {@code 10.100.0.10} for {@code 10.100.0.0/16},
     * {@code fd30:1c53:5f8a::a} for {@code fd30:1c53:5f8a::/108} (written in RFC 5952's short form).
     *
     * @throws IllegalArgumentException when {@code cidr} is not an IP CIDR
     */
    static String tenthAddress(String cidr) {
        String base = cidr.split("/", 2)[0];
        if (!base.matches("[0-9a-fA-F.:]+")) {
            throw new IllegalArgumentException("not a service CIDR: " + cidr);
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(base).getAddress(); // a literal address: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not a service CIDR: " + cidr, e);
        }
        byte[] sum = new BigInteger(1, bytes).add(BigInteger.TEN).toByteArray();
        byte[] out = new byte[bytes.length];
        int n = Math.min(sum.length, out.length);
        System.arraycopy(sum, sum.length - n, out, out.length - n, n);
        if (out.length == 4) {
            return (out[0] & 0xff) + "." + (out[1] & 0xff) + "." + (out[2] & 0xff) + "." + (out[3] & 0xff);
        }
        return shortIpv6(out);
    }

    /** RFC 5952: lower-case groups without leading zeros, the longest run of two or more zero groups as {@code ::}. */
    private static String shortIpv6(byte[] b) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append(i == 0 ? "::" : ":");
                i += bestLen - 1;
                continue;
            }
            s.append(Integer.toHexString(g[i]));
            if (i < 7) {
                s.append(':');
            }
        }
        return s.toString();
    }
}
