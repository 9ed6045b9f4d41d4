// Tailwind CSS 4 through PostCSS, as Next.js loads it.
const config = {
  plugins: {
    "@tailwindcss/postcss": {},
  },
};

export default config;
